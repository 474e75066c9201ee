// The Files list's coverage is read from the stored request and result (embedded: the task row) or from the
// result a remote service called back, on a real store: lib/file-coverage.ts gets the same facts either way.
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { openStore } from "../../server/store/db";
import { receivedCallbacks, tasks } from "../../server/store/schema";
import { coverageOfFiles } from "../../server/dashboard/file-coverage";

const dataDir = await mkdtemp(path.join(os.tmpdir(), "file-coverage-"));
const store = await openStore({ dataDir, databaseUrl: null });
after(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

const now = new Date();
const task = (requestId: string, request: Record<string, unknown>, result: Record<string, unknown> | null) => ({
  requestId, kind: "video" as const, keyId: "k", appId: "a", eventId: "e", btId: requestId, status: result ? ("done" as const) : ("processing" as const), request, result,
  resultCode: result ? 1100 : null, progress: { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 }, baseUrl: "", createdAt: now, updatedAt: now, expiresAt: new Date(now.getTime() + 3600_000),
});
const aux = (o: Record<string, unknown>) => ({ frameCount: 0, billingImgNum: 4, billingAudioDuration: 4, time: 4, notAppliedTypes: [], ...o });

test("coverage per listed file: from the task row, from a called-back result, none before the result", async () => {
  await store.db.insert(tasks).values([
    task("none-applied", { imgType: "POLITY_VIOLENT", audioType: "NONE" }, { code: 1100, riskLevel: "PASS", auxInfo: aux({ notAppliedTypes: ["POLITY", "VIOLENT"] }), frameDetail: [], audioDetail: [] }),
    task("no-audio", { imgType: "QRCODE", audioType: "ADVERT" }, { code: 1100, riskLevel: "PASS", auxInfo: aux({ billingAudioDuration: 0 }), frameDetail: [], audioDetail: [] }),
    task("full", { imgType: "QRCODE", audioType: "ADVERT" }, { code: 1100, riskLevel: "PASS", auxInfo: aux({}), frameDetail: [], audioDetail: [] }),
    task("running", { imgType: "QRCODE", audioType: "NONE" }, null),
  ]);
  await store.db.insert(receivedCallbacks).values({ kind: "video", requestId: "remote", receivedAt: now, body: { code: 1100, riskLevel: "PASS", auxInfo: aux({ notAppliedTypes: ["MOAN"] }), frameDetail: [{ riskLevel: "PASS" }], audioDetail: [] } });

  const got = await coverageOfFiles(store.db, ["none-applied", "no-audio", "full", "running", "remote", "unknown"].map((requestId) => ({ requestId, status: "done" })));
  assert.equal(got.get("none-applied")?.coverage?.state, "not-checked");
  assert.deepEqual(got.get("no-audio")?.coverage?.gaps, [{ reason: "no-audio-track", types: ["ADVERT"] }]);
  assert.deepEqual(got.get("full")?.coverage, { state: "checked", gaps: [], hasAudio: true, requestKnown: true });
  assert.deepEqual(got.get("running"), { requested: { image: ["QRCODE"], audio: [] }, coverage: null });
  assert.deepEqual(got.get("remote"), { requested: null, coverage: { state: "partial", gaps: [{ reason: "no-detector", types: ["MOAN"] }], hasAudio: true, requestKnown: false } });
  assert.equal(got.has("unknown"), false);
});
