// Issue #30 item 3, the write path itself: a live pull whose media directory fills up while it captures (a real
// ENOSPC on a small tmpfs, not the DATA_DIR_MIN_FREE_MB guard that pauses earlier). Every frame it announced is a
// whole JPEG on disk, the frame whose write failed is removed (nothing half-written is left as evidence), nothing
// is written or announced after it, and the pull ends saying why without naming a server path; the stream task
// reads that end as "disk full (ENOSPC)". Skipped, with the reason, where mounting a tmpfs is not permitted.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { startLivePull, type LiveFrame } from "../../server/ingest/live";
import { noSpaceEnd } from "../../server/task/stream-pulls";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { waitFor } from "../support/net";

const mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), "live-enospc-"));
const mounted = process.getuid?.() === 0 && spawnSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint]).status === 0;
const skip = mounted ? false : "mounting a tmpfs is not permitted here (needs root / CAP_SYS_ADMIN)";

let src: RtmpSource | null = null;
before(async () => {
  if (!skip) src = await startRtmpSource({ name: "enospc", audio: "none", bFrames: 0 });
});
after(async () => {
  await src?.close();
  if (mounted) spawnSync("umount", ["-l", mountPoint]);
  await fs.rm(mountPoint, { recursive: true, force: true });
});

const isWholeJpeg = (b: Buffer) => b.length > 4 && b[0] === 0xff && b[1] === 0xd8 && b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9;

test("a live pull's directory fills up mid-stream: announced frames whole, the failed one removed, the end says ENOSPC", { skip, timeout: 120_000 }, async () => {
  const outDir = path.join(mountPoint, "task");
  const frames: LiveFrame[] = [];
  const pull = startLivePull({ url: src!.rtmpUrl, frameIntervalSec: 1, audio: false, ioTimeoutMs: 5000, outDir, onFrame: (f) => void frames.push(f), onSegment: () => {} });
  await waitFor(async () => frames.length >= 2, 60_000, 50);
  // the volume is filled to its last bytes: the next frame cannot be written whole
  const st = await fs.statfs(mountPoint);
  await fs.writeFile(path.join(mountPoint, "filler.bin"), Buffer.alloc(Math.max(0, st.bavail * st.bsize - 2048), 1)).catch(() => undefined);
  const announcedBefore = frames.length;
  const err = await pull.done.then(
    () => null,
    (e: Error) => e,
  );
  assert.ok(err, "the pull ended with an error, not as a normal end");
  assert.equal((err.cause as NodeJS.ErrnoException).code, "ENOSPC");
  assert.match(err.message, /cannot write the task's media directory \(ENOSPC\)/);
  assert.ok(!err.message.includes(mountPoint), `the message names no server path: ${err.message}`);
  // every announced frame is whole on disk; nothing else is there (the frame that failed was removed)
  const files = (await fs.readdir(outDir)).sort();
  assert.deepEqual(files, frames.map((f) => path.basename(f.path)).sort(), "only announced frames are on disk");
  for (const f of frames) assert.ok(isWholeJpeg(await fs.readFile(f.path)), `${path.basename(f.path)} is a whole JPEG`);
  assert.ok(frames.length >= announcedBefore, "frames written before the disk filled stay");
  // the stream task reads this end as "disk full" (its health strip's last error), with the stream-end code 3002
  assert.deepEqual(noSpaceEnd(err), { reason: "failed", errorCode: 3002, message: "cannot write the task's media directory: disk full (ENOSPC)", gotData: true });
  assert.throws(() => noSpaceEnd(new Error("other", { cause: Object.assign(new Error("x"), { code: "EACCES" }) })), /other/, "other write errors stand");
});
