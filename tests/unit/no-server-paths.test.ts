// Security issue #9: error messages that reach a client (Query / callback 1905, list uploads) name no server path.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { createLists, uploadError } from "../../server/dashboard/lists";
import type { DetectPool } from "../../server/detect";
import { FfmpegError, fileDemuxerFor, fileInputOptions, refusedFormatIn, describeFormat, withoutPaths } from "../../server/ingest/ffmpeg";
import { extractFrames } from "../../server/ingest/frames";
import { findOnPath } from "../../server/ingest/resolve";
import { probeMedia } from "../../server/ingest/probe";
import { publicReason } from "../../server/task/file-pipeline";
import { makeCorruptFile, makeVideo } from "../support/media";

let dataDir: string;
let video: string;
before(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "paths-data-"));
  await fs.mkdir(path.join(dataDir, "media", "req1"), { recursive: true });
  video = path.join(dataDir, "media", "req1", "source");
  await fs.copyFile(await makeVideo({ name: "paths-short", durationSec: 1, width: 160, height: 90, fps: 10, audio: "none" }), video);
});
after(() => fs.rm(dataDir, { recursive: true, force: true }));

/** No absolute path: neither `dir` nor a "/…" token that is not part of a URL. */
function assertNoPath(message: string, dir: string) {
  assert.ok(!message.includes(dir), `names ${dir}: ${message}`);
  assert.doesNotMatch(message, /(^|[\s'"(=])\/[^\s/]/, `absolute path in: ${message}`);
}

test("a file whose frames cannot be decoded: 'no video frame could be decoded', naming no file", async () => {
  // times past the end: ffmpeg succeeds with no frame, the case the old message named the file under DATA_DIR in
  const err = await extractFrames(video, { mode: "times", times: [30], intervalSec: null, reason: "past the end" }, path.join(dataDir, "media", "req1")).catch((e: unknown) => e);
  assert.ok(err instanceof FfmpegError, String(err));
  assert.equal(err.kind, "no-stream");
  assert.equal(err.message, "no video frame could be decoded");
});

test("ffmpeg/ffprobe failures name the input by base name only", async () => {
  const garbage = path.join(dataDir, "media", "req1", "garbage");
  await fs.copyFile(await makeCorruptFile("paths-garbage"), garbage);
  const err = await probeMedia(garbage).catch((e: unknown) => e);
  assert.ok(err instanceof FfmpegError, String(err));
  assert.equal(err.kind, "invalid-data");
  assertNoPath(err.message, dataDir);
  assert.match(err.message, /garbage: Invalid data/);
  assert.equal(withoutPaths("/d/m/x/source: bad; Could not open file : /d/m/x/frame-00001.jpg", ["-i", "/d/m/x/source", "/d/m/x/frame-%05d.jpg"]), "source: bad; Could not open file : frame-00001.jpg");
});

test("publicReason: server paths out, URLs and plain reasons untouched", () => {
  const roots = ["/srv/data/media/abc", "/srv/data/media", "/srv/data"];
  assert.equal(publicReason("ffmpeg failed (invalid-data): /srv/data/media/abc/source: Invalid data found", roots), "ffmpeg failed (invalid-data): source: Invalid data found");
  assert.equal(publicReason("download failed: EACCES: permission denied, open '/srv/data/media/abc/source.1a2b.part'", roots), "download failed: EACCES: permission denied, open 'source.1a2b.part'");
  assert.equal(publicReason("cannot open /etc/secret.mp4 (see /var/log/x)", roots), "cannot open <path> (see <path>)");
  for (const kept of ["HTTP 404 from http://127.0.0.1:8080/a/b.mp4", "resolution 2560×1440 is over the 1920×1080 limit", "a / b", "processing took longer than 3 s (FILE_PROCESS_MIN_SEC + FILE_PROCESS_TIME_FACTOR × duration)"]) {
    assert.equal(publicReason(kept, roots), kept);
  }
});

test("the container allowlist: playlists and scripts refused, containers forced by name", () => {
  assert.equal(fileDemuxerFor("mov,mp4,m4a,3gp,3g2,mj2"), "mov");
  assert.equal(fileDemuxerFor("matroska,webm"), "matroska");
  for (const bad of ["hls", "hls,applehttp", "concat", "image2", "png_pipe", "dash", null]) assert.equal(fileDemuxerFor(bad), null, String(bad));
  assert.deepEqual(fileInputOptions("mov"), ["-protocol_whitelist", "file", "-format_whitelist", "mov", "-f", "mov", "-enable_drefs", "0"]);
  assert.deepEqual(fileInputOptions("matroska"), ["-protocol_whitelist", "file", "-format_whitelist", "matroska", "-f", "matroska"]);
  const probing = fileInputOptions();
  assert.equal(probing[probing.indexOf("-protocol_whitelist") + 1], "file", "no pipe, no network");
  assert.ok(!probing[probing.indexOf("-format_whitelist") + 1].split(",").some((f) => ["hls", "concat", "image2", "dash"].includes(f)));
  assert.equal(refusedFormatIn("[hls,applehttp @ 0x3296ac00] Format not on whitelist 'mov,matroska'\nsource: Invalid argument"), "hls,applehttp");
  assert.equal(refusedFormatIn("[hls @ 0x55d2be5652c0] Format not on whitelist 'mov'"), "hls");
  assert.equal(describeFormat("hls,applehttp"), "hls playlist");
  assert.equal(describeFormat("concat"), "concat script (ffconcat)");
});

test("a failing list upload names the uploaded file, never its temp copy or another server path", async () => {
  const noFaces = { embedLargestFace: async () => null } as unknown as DetectPool;
  const lists = createLists({ dataDir, detect: noFaces });
  try {
    const face = await lists.add("faces", "politicians", "Nobody", { name: "photo.jpg", bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]) }).catch((e: unknown) => e as Error);
    assert.ok(face instanceof Error);
    assert.match(face.message, /no face found in photo\.jpg/);
    assertNoPath(face.message, os.tmpdir());
    assert.doesNotMatch(face.message, /list-upload-/);

    const image = await lists.add("images", "prohibited", "junk", { name: "junk.png", bytes: new Uint8Array([1, 2, 3]) }).catch((e: unknown) => e as Error);
    assert.ok(image instanceof Error);
    assertNoPath(image.message, os.tmpdir());

    if (findOnPath("fpcalc")) {
      const audio = await lists.add("audio", "copyright_songs", "noise", { name: "track.mp3", bytes: new Uint8Array(Buffer.from("not audio at all")) }).catch((e: unknown) => e as Error);
      assert.ok(audio instanceof Error);
      assert.match(audio.message, /track\.mp3/);
      assertNoPath(audio.message, os.tmpdir());
      assert.doesNotMatch(audio.message, /list-upload-/);
    }
  } finally {
    await lists.close();
  }
  const tmp = path.join(os.tmpdir(), "list-upload-x1", "a.mp3");
  assert.equal(
    uploadError(`fpcalc gave no fingerprint for ${tmp}: ERROR: Could not open ${tmp}; wrote ${dataDir}/audio-references/x.json; see /var/log/y`, { tmp, dir: path.dirname(tmp), shown: "a.mp3", roots: [dataDir, os.tmpdir()] }),
    "fpcalc gave no fingerprint for a.mp3: ERROR: Could not open a.mp3; wrote <path>; see <path>",
  );
});
