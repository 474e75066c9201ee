// Security issue #9: a downloaded "video file" that is really a playlist or concat script must not make ffmpeg
// open other files on the server's disk, and 1905 messages must never name a server path.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { runFfmpeg } from "../../server/ingest/ffmpeg";
import { startTestService, TEST_KEY } from "../support/app";
import { makeCorruptFile, makeVideo, startStaticServer } from "../support/media";
import { startReceiver } from "../support/net";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Unique per run, so it can only come from decoding the local file. */
const SECRET = `https://local-secret.example/${randomBytes(6).toString("hex")}`;

/** Everything up to the `mdat` payload of a faststart mp4: streams declared, no media data. */
function headerOnly(mp4: Buffer): Buffer {
  for (let at = 0; at + 8 <= mp4.length; ) {
    const size = mp4.readUInt32BE(at);
    if (mp4.toString("latin1", at + 4, at + 8) === "mdat") return mp4.subarray(0, at + 8);
    if (size < 8) break;
    at += size;
  }
  throw new Error("no mdat box");
}

describe("downloaded files: only allowlisted containers, no server paths in messages", async () => {
  const svc = await startTestService({ env: { RATE_LIMIT_PER_MINUTE: "0" } });
  let root: string;
  let secretFile: string;
  let files: { url: string; close(): Promise<void> };
  let rx: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "lfi-"));
    // the "local file": on the server's disk, never served
    const video = await makeVideo({ name: "lfi-secret", durationSec: 2, width: 320, height: 240, fps: 10, audio: "none", background: "white", qr: { text: SECRET, fromSec: 0, toSec: 2 } });
    await fs.mkdir(path.join(root, "private"));
    secretFile = path.join(root, "private", "secret.mp4");
    await fs.copyFile(video, secretFile);

    const served = path.join(root, "served");
    await fs.mkdir(served);
    const playlist = `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\n${secretFile}\n#EXT-X-ENDLIST\n`;
    await fs.writeFile(path.join(served, "lfi.m3u8"), playlist); // application/vnd.apple.mpegurl
    await fs.writeFile(path.join(served, "lfi"), playlist); // no extension: application/octet-stream
    await fs.writeFile(path.join(served, "concat.mp4"), `ffconcat version 1.0\nfile '${secretFile}'\n`);
    await fs.writeFile(path.join(served, "header-only.mp4"), headerOnly(await fs.readFile(video)));
    await fs.copyFile(await makeCorruptFile("lfi-garbage"), path.join(served, "garbage.mp4"));
    await fs.copyFile(video, path.join(served, "normal.mp4"));
    files = await startStaticServer(served);
    rx = await startReceiver();
  });
  after(async () => {
    await Promise.all([files?.close(), rx?.close()]);
    await svc.close();
    if (root) await fs.rm(root, { recursive: true, force: true });
  });

  const submit = (btId: string, name: string) => svc.post("/video/v4", { accessKey: TEST_KEY, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: rx.url, data: { btId, url: `${files.url}/${name}`, detectFrequency: 1 } });
  const callbackOf = async (btId: string): Promise<Json> => (await rx.until((r) => r.some((x) => x.body.btId === btId), 60_000)).find((x) => x.body.btId === btId)!.body;
  const queryOf = (btId: string) => svc.post("/video/query/v4", { accessKey: TEST_KEY, btId }) as Promise<Json>;
  const framesOnDisk = async (requestId: string) => (await fs.readdir(path.join(svc.dataDir, "media", requestId)).catch(() => [] as string[])).filter((n) => n.endsWith(".jpg"));
  /** No absolute path of any kind: DATA_DIR, the temp folder, or a "/…" token not part of a URL. */
  const assertNoServerPath = (message: string, what: string) => {
    assert.ok(!message.includes(svc.dataDir), `${what}: names DATA_DIR: ${message}`);
    assert.ok(!message.includes(root), `${what}: names a server file: ${message}`);
    assert.doesNotMatch(message, /(^|[\s'"(=])\/[^\s/]/, `${what}: contains an absolute path: ${message}`);
  };

  test("the fixtures are live: unrestricted ffmpeg really reads the local file through the playlist", async () => {
    const out = path.join(root, "proof.jpg");
    await runFfmpeg(["-protocol_whitelist", "file,pipe", "-i", path.join(root, "served", "lfi"), "-frames:v", "1", "-y", out], { timeoutMs: 30_000 });
    assert.ok((await fs.stat(out)).size > 0, "the HLS playlist opened its absolute file segment");
  });

  test("HLS playlist (.m3u8 and no extension) and ffconcat script → 1905 by callback and Query; the local file's QR never appears", async () => {
    const cases = [
      { btId: "lfi-m3u8", name: "lfi.m3u8", reason: /unsupported container format: hls playlist/ },
      { btId: "lfi-noext", name: "lfi", reason: /unsupported container format: hls playlist/ },
      { btId: "lfi-ffconcat", name: "concat.mp4", reason: /unsupported container format: concat/ },
    ];
    for (const c of cases) assert.equal((await submit(c.btId, c.name)).code, 1100, c.btId);
    for (const c of cases) {
      const cb = await callbackOf(c.btId);
      assert.equal(cb.code, 1905, `${c.btId}: ${cb.message}`);
      assert.match(cb.message, /^Unrecognized content: /);
      assert.match(cb.message, c.reason, c.btId);
      assertNoServerPath(cb.message, c.btId);
      assert.ok(!JSON.stringify(cb).includes(SECRET), `${c.btId}: callback carries the local file's QR content`);
      assert.deepEqual(cb.frameDetail ?? [], [], `${c.btId}: no frames`);
      const q = await queryOf(c.btId);
      assert.equal(q.code, 1905, `${c.btId} by Query`);
      assert.equal(q.message, cb.message);
      assert.ok(!JSON.stringify(q).includes(SECRET), `${c.btId}: Query carries the local file's QR content`);
      assert.deepEqual(await framesOnDisk(cb.requestId), [], `${c.btId}: no frame was captured (nothing to download)`);
    }
  });

  test("an undecodable file's 1905 names no server path (header-only mp4: no frame decodes; garbage)", async () => {
    const cases = [
      { btId: "undecodable", name: "header-only.mp4" },
      { btId: "garbage", name: "garbage.mp4" },
    ];
    for (const c of cases) assert.equal((await submit(c.btId, c.name)).code, 1100, c.btId);
    for (const c of cases) {
      const cb = await callbackOf(c.btId);
      assert.equal(cb.code, 1905, `${c.btId}: ${cb.message}`);
      assertNoServerPath(cb.message, c.btId);
      const q = await queryOf(c.btId);
      assert.equal(q.code, 1905);
      assertNoServerPath(q.message, `${c.btId} by Query`);
    }
  });

  test("the same video served as a plain mp4 is moderated: its QR content is found (the detector works)", async () => {
    assert.equal((await submit("normal", "normal.mp4")).code, 1100);
    const cb = await callbackOf("normal");
    assert.equal(cb.code, 1100, cb.message);
    assert.ok(cb.frameDetail.some((f: Json) => (f.riskDetail?.objects ?? []).some((o: Json) => o.qrContent === SECRET)), "QR content decoded from the mp4");
  });
});
