// Issue #30 item 3: DATA_DIR full. The server (embedded mode, PGlite in DATA_DIR; a real child process) runs on a small
// tmpfs mounted for the test; a filler file takes the volume under DATA_DIR_MIN_FREE_MB. New work is refused with a
// documented code saying why (HTTP 200, 1903, Retry-After) and nothing half-written; what was stored before stays
// whole (its result and frames served); the process lives on; once space is freed new work is accepted and completes.
// Skipped, with the reason, where mounting a tmpfs is not permitted (not root, or no CAP_SYS_ADMIN).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { moderateFile, TEST_KEY } from "../support/app";
import { startChildServer, type ChildServer } from "../support/child-server";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";

const MB = 1024 * 1024;
const mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), "fault-disk-"));
// a PGlite database takes ≈ 45 MB: 96 MB leaves room for it and a few files
const mounted = process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=96m", "tmpfs", mountPoint]).status === 0;
const skip = mounted ? false : "mounting a tmpfs for DATA_DIR is not permitted here (needs root / CAP_SYS_ADMIN)";

let server: ChildServer | null = null;
let web: Awaited<ReturnType<typeof startStaticServer>> | null = null;
const filler = path.join(mountPoint, "filler.bin");

before(async () => {
  if (skip) return;
  server = await startChildServer({ dataDir: mountPoint, timeoutMs: 120_000, env: { DATA_DIR_MIN_FREE_MB: "16" } });
  web = await startStaticServer(mediaDir());
});

after(async () => {
  await server?.stop();
  await web?.close();
  if (mounted) spawnSync("umount", ["-l", mountPoint]);
  await fs.rm(mountPoint, { recursive: true, force: true });
});

async function free(): Promise<number> {
  const st = await fs.statfs(mountPoint);
  return st.bavail * st.bsize;
}

/** Posts and returns HTTP status, Retry-After and the parsed body. */
async function postRaw(p: string, body: unknown) {
  const res = await fetch(`${server!.url}${p}`, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Record<string, unknown> };
}

test("DATA_DIR almost full: new work refused saying why, stored results whole, accepted again once space is freed", { skip, timeout: 300_000 }, async () => {
  const video = await makeVideo({ name: "fault-disk", durationSec: 4, width: 320, height: 240, fps: 5, audio: "none" });
  const first = await moderateFile(server!, web!.url, video, { btId: "disk-before", imgType: "QRCODE", data: { returnAllImg: 1 } });
  assert.ok(first.frameDetail.length >= 3, JSON.stringify(first).slice(0, 300));

  // fill the volume to 8 MB free (under the 16 MB minimum)
  await fs.writeFile(filler, Buffer.alloc(Math.max(0, (await free()) - 8 * MB)));
  assert.ok((await free()) < 16 * MB);
  const fileBody = { accessKey: TEST_KEY, appId: "a", eventId: "video", imgType: "QRCODE", audioType: "NONE", data: { btId: "disk-during", url: `${web!.url}/${path.basename(video)}`, detectFrequency: 1 } };
  const refused = await postRaw("/video/v4", fileBody);
  const refusedStream = await postRaw("/videostream/v4", { accessKey: TEST_KEY, appId: "a", eventId: "live", imgType: "QRCODE", audioType: "NONE", imgCallback: "http://127.0.0.1:9/cb", data: { streamType: "NORMAL", url: "rtmp://127.0.0.1:9/live/x", tokenId: "d" } });
  for (const r of [refused, refusedStream]) {
    assert.equal(r.status, 200);
    assert.equal(r.body.code, 1903, JSON.stringify(r.body));
    assert.match(String(r.body.message), /DATA_DIR is almost full .*retry later/, JSON.stringify(r.body));
    assert.ok(Number(r.retryAfter) > 0, "Retry-After says when to try again");
  }
  // nothing was accepted: the refused btId is unknown
  assert.equal((await server!.post("/video/query/v4", { accessKey: TEST_KEY, btId: "disk-during" })).code, 1902);
  // what was stored before is whole: its result and its frames are served
  const again = await server!.post("/video/query/v4", { accessKey: TEST_KEY, btId: "disk-before" });
  assert.deepEqual(again, first);
  const img = await fetch(String(first.frameDetail[0].imgUrl));
  assert.equal(img.status, 200);
  assert.ok((await img.arrayBuffer()).byteLength > 1000, "the stored frame is a whole JPEG");
  assert.doesNotThrow(() => process.kill(server!.pid, 0), "the server lives on");

  // space freed: accepted again without a restart, and completes
  await fs.rm(filler);
  const after = await moderateFile(server!, web!.url, video, { btId: "disk-during", imgType: "QRCODE", data: { returnAllImg: 1 } });
  assert.equal(after.frameDetail.length, first.frameDetail.length);
});
