// The live preview's pieces without ffmpeg: the segment ring and its playlist, clip planning and the
// segments a clip is cut from, signed links, and how the preview output is encoded for a given source.
import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_CLIP_SEC, planClip, segmentsFor, type ClipPlan } from "../../server/preview/clips";
import { InputCodecs, modeFor, previewOutputArgs } from "../../server/preview/encoding";
import { PreviewLinks } from "../../server/preview/links";
import { PreviewRing, type PreviewSegment } from "../../server/preview/playlist";

const T0 = Date.parse("2026-11-23T10:00:00.000Z");
const seg = (seq: number, startSec: number, durationSec = 2, discontinuity = false): PreviewSegment => ({ seq, durationSec, startMs: T0 + startSec * 1000, discontinuity });

test("the ring renders an HLS playlist with a date on every segment and reads it back", () => {
  const ring = new PreviewRing();
  ring.push(seg(0, 0));
  ring.push(seg(1, 2));
  ring.push(seg(2, 30, 2, true)); // a new ffmpeg run after a reconnect
  const text = ring.render();
  assert.match(text, /^#EXTM3U\n/);
  assert.match(text, /#EXT-X-MEDIA-SEQUENCE:0\n/);
  assert.match(text, /#EXT-X-TARGETDURATION:2\n/);
  assert.match(text, /#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:02\.000Z\n#EXTINF:2\.000,\ns1\.ts\n/);
  assert.match(text, /s1\.ts\n#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:2026-11-23T10:00:30\.000Z/);
  assert.doesNotMatch(text, /ENDLIST/);
  ring.ended = true;
  const back = PreviewRing.parse(ring.render((s) => `s${s.seq}.ts?exp=1&sig=x`));
  assert.deepEqual(back.segments, ring.segments);
  assert.equal(back.ended, true);
  assert.equal(back.nextSeq, 3);
});

test("trimming keeps the newest PREVIEW_RETENTION_MIN of media, counts trimmed discontinuities, spares what a clip needs", () => {
  const ring = new PreviewRing();
  for (let i = 0; i < 10; i++) ring.push(seg(i, i * 2, 2, i === 4));
  assert.deepEqual(ring.trim(9, T0 + 5000).map((s) => s.seq), [0, 1], "segment 2 ends after a pending clip's start");
  const dropped = ring.trim(9);
  assert.deepEqual(dropped.map((s) => s.seq), [2, 3, 4, 5]);
  assert.equal(ring.mediaSeq, 6);
  assert.equal(ring.discontinuitySeq, 1, "segment 4's discontinuity left the playlist");
  const back = PreviewRing.parse(ring.render());
  assert.equal(back.mediaSeq, 6);
  assert.equal(back.discontinuitySeq, 1);
  assert.deepEqual(ring.window(), { startMs: T0 + 12_000, endMs: T0 + 20_000 });
});

test("REJECT frames within CLIP_AFTER_SEC of a clip's first frame share it; a run of hits gives a clip every CLIP_AFTER_SEC", () => {
  const plans: ClipPlan[] = [];
  const a = planClip(plans, { index: 5, atMs: T0 }, 10, 10);
  const b = planClip(plans, { index: 6, atMs: T0 + 3000 }, 10, 10);
  assert.equal(a, b);
  assert.deepEqual([a.n, a.fromMs - T0, a.toMs - T0], [5, -10_000, 13_000]);
  const c = planClip(plans, { index: 20, atMs: T0 + 30_000 }, 10, 10);
  assert.notEqual(c, a);
  assert.equal(plans.length, 2);
  // a hit every second for 200 s: a clip every 11 s, each holding before + its frames' span + after
  const long: ClipPlan[] = [];
  for (let i = 0; i < 200; i++) planClip(long, { index: i + 1, atMs: T0 + i * 1000 }, 10, 10);
  assert.equal(long.length, Math.ceil(200 / 11));
  for (const p of long) assert.ok(p.toMs - p.fromMs <= 30_000 && p.toMs - p.fromMs <= MAX_CLIP_SEC * 1000);
  assert.deepEqual(long.slice(0, 3).map((p) => p.n), [1, 12, 23]);
});

test("a clip is cut from the segments whose middle lies in its span, plus the frame's own", () => {
  const ring = Array.from({ length: 20 }, (_, i) => seg(i, i * 2));
  const plan: ClipPlan = { n: 1, frames: [{ index: 1, atMs: T0 + 20_500 }], fromMs: T0 + 10_500, toMs: T0 + 30_500 };
  const picked = segmentsFor(plan, ring);
  assert.deepEqual(picked.map((s) => s.seq), [5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
  const duration = picked.reduce((sum, s) => sum + s.durationSec, 0);
  assert.ok(Math.abs(duration - 20) <= 2, "before + after within one segment");
  // zero seconds around: still the frame's own segment
  assert.deepEqual(segmentsFor({ ...plan, fromMs: T0 + 20_500, toMs: T0 + 20_500 }, ring).map((s) => s.seq), [10]);
});

test("signed links: one task, one file, until they expire", () => {
  const links = new PreviewLinks(Buffer.alloc(32, 7));
  const now = Date.now();
  const link = links.link("task1", "s3.ts", { now });
  const q = new URLSearchParams(link.split("?")[1]);
  assert.ok(links.check("task1", "s3.ts", q, now));
  assert.ok(!links.check("task1", "s4.ts", q, now), "another file");
  assert.ok(!links.check("task2", "s3.ts", q, now), "another task");
  assert.ok(!links.check("task1", "s3.ts", q, now + 3 * 3600_000), "expired");
  assert.ok(!links.check("task1", "s3.ts", new URLSearchParams(`exp=${q.get("exp")}&sig=${"A".repeat(32)}`), now));
  // 32 characters but 33 bytes: refused, never a throw (node's timingSafeEqual throws on unequal byte lengths)
  assert.ok(!links.check("task1", "s3.ts", new URLSearchParams(`exp=${q.get("exp")}&sig=é${"A".repeat(31)}`), now));
  assert.ok(!links.check("task1", "s3.ts", new URLSearchParams(), now));
  assert.ok(!new PreviewLinks(Buffer.alloc(32, 8)).check("task1", "s3.ts", q, now), "another key");
  assert.match(links.link("task1", "index.m3u8", { absolute: true }), /^\/api\/preview\/task1\/index\.m3u8\?exp=\d+&sig=[\w-]{32}$/);
});

test("H.264/AAC is remuxed; anything else is transcoded, track by track", () => {
  const codecs = new InputCodecs();
  const lines = [
    "Input #0, flv, from 'rtmp://127.0.0.1/live/x':",
    "  Duration: 00:00:00.00, start: 0.000000, bitrate: N/A",
    "  Stream #0:0: Audio: mp3, 22050 Hz, mono, fltp, 32 kb/s",
    "  Stream #0:1: Video: flv1, yuv420p, 320x180, 200 kb/s, 10 fps",
    "Stream mapping:",
  ];
  assert.deepEqual(lines.map((l) => codecs.line(l)), [false, false, false, false, true]);
  assert.deepEqual([codecs.video, codecs.audio], ["flv1", "mp3"]);
  assert.deepEqual(modeFor(codecs), { video: "h264", audio: "aac" });
  assert.deepEqual(modeFor({ video: "h264", audio: "aac" }), { video: "copy", audio: "copy" });
  assert.deepEqual(modeFor({ video: "h264", audio: null }), { video: "copy", audio: "copy" });
  assert.deepEqual(modeFor({ video: "h264", audio: "opus" }), { video: "copy", audio: "aac" });
  const copy = previewOutputArgs({ dir: "/d", startNumber: 7, listFile: "/d/run.csv", segmentSec: 1, mode: { video: "copy", audio: "copy" } });
  assert.deepEqual(copy.slice(copy.indexOf("-c:v"), copy.indexOf("-c:v") + 4), ["-c:v", "copy", "-c:a", "copy"]);
  assert.equal(copy[copy.indexOf("-segment_start_number") + 1], "7");
  assert.equal(copy.at(-1), "/d/s%d.ts");
  const h264 = previewOutputArgs({ dir: "/d", startNumber: 0, listFile: "/d/run.csv", segmentSec: 1, mode: { video: "h264", audio: "aac" } });
  assert.ok(h264.includes("libx264") && h264.includes("expr:gte(t,n_forced*1)"));
});
