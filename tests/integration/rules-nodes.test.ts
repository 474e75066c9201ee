// Rules (#27) in scaled mode: two dashboard nodes (real processes, one PostgreSQL) evaluate the same callbacks at the
// same instant (as when a callback is retried to another node): the rule acts exactly once per window per stream.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { openStore, type Store } from "../../server/store/db";
import { createRule } from "../../server/rules/store";
import { ruleActivity } from "../../server/rules/schema";
import { dashboardStreams } from "../../server/store/schema";
import { RuleInput } from "../../lib/rules";
import { scaleSkip, scratchSchema } from "../support/scale";

const frame = (requestId: string, i: number, at: Date) => ({
  code: 1100, message: "Success", requestId: `${requestId}_v${i}`, contentType: 1, statCode: 0,
  frameDetail: {
    imgUrl: `/media/${requestId}/f${i}.jpg`, riskLevel: "REJECT", riskLabel1: "ad", riskLabel2: "qrcode", riskLabel3: "", riskDescription: "Advertising",
    allLabels: [{ riskLabel1: "ad", riskLabel2: "qrcode", riskLabel3: "", riskLevel: "REJECT", probability: 0.99, riskDescription: "Advertising" }],
    riskDetail: { riskSource: 1000 }, auxInfo: { beginProcessTime: at.getTime(), finishProcessTime: at.getTime(), imgTime: localStamp(at) }, businessLabels: [],
  },
});
const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const localStamp = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;

function runNode(url: string, input: string, startAt: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "tests/support/rule-node.ts", input, String(startAt)], { env: { ...process.env, DATABASE_URL: url }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 && out.includes("DONE") ? resolve(out) : reject(new Error(`node exited ${code}: ${out}`))));
  });
}

describe("rules on two nodes", { skip: scaleSkip }, async () => {
  const scratch = scaleSkip ? null : await scratchSchema("rules");
  let store: Store | null = null;
  const dir = await mkdtemp(path.join(os.tmpdir(), "rules-nodes-"));
  after(async () => {
    await store?.close();
    await scratch?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  test("the same hits on two nodes at once: one close, one alert per window per stream", { timeout: 120_000 }, async () => {
    store = await openStore({ dataDir: dir, databaseUrl: scratch!.url });
    const rule = RuleInput.parse({ name: "two nodes", mode: "live", when: { labels: ["ad"], count: 3, withinSec: 60 }, then: [{ action: "close" }, { action: "alert" }] });
    await createRule(store.db, rule, "sup");
    const streams = ["a".repeat(32), "b".repeat(32)];
    for (const requestId of streams) await store.db.insert(dashboardStreams).values({ requestId, kind: "video", url: "rtmp://x/y", serviceBaseUrl: "http://127.0.0.1:9", receiverToken: requestId, status: "running", startedAt: new Date() });
    // five frames a second apart per stream, all in one 60 s window
    const base = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 1000);
    const inputs = streams.flatMap((requestId) => [0, 1, 2, 3, 4].map((i) => ({ requestId, body: frame(requestId, i, new Date(base.getTime() + i * 1000)) })));
    const file = path.join(dir, "inputs.json");
    await writeFile(file, JSON.stringify(inputs));
    const startAt = Date.now() + 4000;
    const outs = await Promise.all([runNode(scratch!.url, file, startAt), runNode(scratch!.url, file, startAt)]);
    const acts = outs.join("").split("\n").filter((l) => l.startsWith("ACT "));
    assert.deepEqual(acts.sort(), streams.flatMap((s) => [`ACT alert ${s}`, `ACT close ${s}`]).sort(), outs.join("\n---\n"));
    const rows = await store.db.select().from(ruleActivity);
    assert.equal(rows.length, 4, "one record per stream and action");
    assert.ok(rows.every((r) => r.mode === "live" && r.acted));
  });
});
