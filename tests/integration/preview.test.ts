// Issue #12 items 1 and 3: the pull that runs for detection also writes a live preview (MPEG-TS segments in an
// HLS ring), served only to a signed-in viewer under signed, expiring links; every REJECT frame keeps a clip cut
// from those segments with ffmpeg concat + stream copy. Real RTMP sources, the real service, the real route
// handlers called directly (their guard is the gate that matters here: no session, no preview).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { createAuth } from "../../server/auth";
import { accessRule } from "../../server/auth/access";
import { startRtmpServer } from "../../server/demo/rtmp-server";
import { startFfmpeg } from "../../server/ingest/ffmpeg";
import { previewLinks } from "../../server/preview/links";
import { endMs, PreviewRing } from "../../server/preview/playlist";
import { RetentionJob } from "../../server/store/retention";
import { IDENTITY_HEADERS } from "../../lib/roles";
import { qrStreamRequest, startTestService, TEST_KEY } from "../support/app";
import { startRtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";
import { makeVideo, mediaDir, startStaticServer } from "../support/media";
import type { PreviewInfo } from "../../server/preview/info";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Service = Awaited<ReturnType<typeof startTestService>>;
type Handler = (req: Request, ctx: unknown) => Promise<Response>;

const QR = "https://spam.example/preview-clip";
const BEFORE = 3;
const AFTER = 3;
const PASSWORD = "supervisor-pass-1";

const handler = async (route: string) => ((await import(path.resolve("app/api/preview", route, "route.ts"))) as { GET: Handler }).GET;
const params = (p: Record<string, string>) => ({ params: Promise.resolve(p) });

const streamRequest = (url: string, cb: string) => qrStreamRequest(url, cb);

async function ringOf(svc: Service, id: string): Promise<PreviewRing | null> {
  const text = await fs.readFile(path.join(svc.dataDir, "media", id, "preview", "index.m3u8"), "utf8").catch(() => null);
  return text === null ? null : PreviewRing.parse(text);
}

function probe(file: string): { duration: number; codecs: string[] } {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration:stream=codec_name", "-of", "json", file], { encoding: "utf8" });
  const j = JSON.parse(out) as { format: { duration: string }; streams: Array<{ codec_name: string }> };
  return { duration: Number(j.format.duration), codecs: j.streams.map((s) => s.codec_name) };
}

describe("live preview and evidence clips", () => {
  let svc: Service;
  let session: Record<string, string>;

  before(async () => {
    svc = await startTestService({ env: { CLIP_BEFORE_SEC: String(BEFORE), CLIP_AFTER_SEC: String(AFTER), RESULT_RETENTION_HOURS: "0" } });
    // every decoded QR code is a REJECT here, so REJECT frames (and their clips) come every loop
    await svc.engine!.lists.policy.update({ rules: { qrcode: { reject: 1 } } });
    // a supervisor in this service's store; its sessions are what the route handlers' guard reads
    const auth = await createAuth({ store: svc.engine!.ctx.store, dataDir: svc.dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: PASSWORD, log: () => undefined });
    await auth.bootstrap();
    const s = await auth.signIn("admin", PASSWORD, "127.0.0.1", null);
    const info = (await auth.session(s.cookie))!;
    session = { cookie: `mp_session=${encodeURIComponent(s.cookie)}`, [IDENTITY_HEADERS.id]: s.user.id, [IDENTITY_HEADERS.session]: info.id, [IDENTITY_HEADERS.role]: "supervisor" };
  });
  after(() => svc?.close());

  test("an RTMP stream's preview: segments on disk, served only with a session and a valid signature; REJECT clips ≈ before + after", async () => {
    // QR code from 2 to 3 s of every 6 s loop: one or two REJECT frames a loop, loops far enough apart for separate clips
    const src = await startRtmpSource({ name: "preview-qr", audio: "tone", qr: { text: QR, fromSec: 2, toSec: 3 } });
    const rx = await startReceiver();
    try {
      const ack = await svc.post("/videostream/v4", streamRequest(src.rtmpUrl, rx.url));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      const t0 = Date.now();
      const ring = await waitFor(async () => {
        const r = await ringOf(svc, id);
        return r && r.segments.length >= 3 ? r : null;
      }, 40_000, 200);
      const ageMs = Date.now() - endMs(ring.segments.at(-1)!);
      console.log(`# preview: first 3 segments after ${Date.now() - t0} ms; durations ${ring.segments.map((s) => s.durationSec).join(", ")} s; newest media in the playlist ${ageMs} ms old`);
      for (const s of ring.segments) {
        const st = await fs.stat(path.join(svc.dataDir, "media", id, "preview", `s${s.seq}.ts`));
        assert.ok(st.size > 0, `segment ${s.seq} exists`);
        assert.ok(s.durationSec > 0.5 && s.durationSec <= 2.5, `short segments (the source's 2 s GOP): ${s.durationSec}`);
      }
      // the playlist is live: a segment whose media ends after this moment is added (no backlog replayed)
      const mark = Date.now();
      await waitFor(async () => {
        const r = await ringOf(svc, id);
        return r && r.segments.length && endMs(r.segments.at(-1)!) > mark ? r : null;
      }, 30_000, 200);
      assert.ok(Math.abs(ring.segments[0].startMs - t0) < 15_000, "program date-time is wall-clock time");

      // ---- the gate: the route handlers' own guard and the access rule ----
      assert.equal(accessRule("GET", "/api/preview/x/index.m3u8").access, "view");
      const info = await handler("[requestId]");
      const file = await handler("[requestId]/[file]");
      const clip = await handler("[requestId]/clips/[clip]");
      const noSession = await info(new Request(`http://x/api/preview/${id}`), params({ requestId: id }));
      assert.equal(noSession.status, 401);
      assert.equal(noSession.headers.get("x-mp-refused-by"), "handler");
      const res = await info(new Request(`http://x/api/preview/${id}`, { headers: session }), params({ requestId: id }));
      assert.equal(res.status, 200);
      const body = (await res.json()) as Json;
      assert.equal(body.available, true);
      assert.equal(body.live, true);
      assert.match(body.playlistUrl, new RegExp(`^/api/preview/${id}/index\\.m3u8\\?exp=\\d+&sig=[\\w-]{32}$`));

      const get = (url: string, headers: Record<string, string> = session) => {
        const u = new URL(url, "http://x");
        const [, , , requestId, name] = u.pathname.split("/");
        return file(new Request(u, { headers }), params({ requestId, file: name }));
      };
      const playlist = await get(body.playlistUrl);
      assert.equal(playlist.status, 200);
      assert.equal(playlist.headers.get("content-type"), "application/vnd.apple.mpegurl");
      const m3u8 = await playlist.text();
      assert.match(m3u8, /#EXT-X-PROGRAM-DATE-TIME:\d{4}-\d\d-\d\dT/);
      assert.doesNotMatch(m3u8, /#EXT-X-ENDLIST/);
      const uris = m3u8.split("\n").filter((l) => l && !l.startsWith("#"));
      assert.ok(uris.length >= 3);
      for (const uri of uris) assert.match(uri, /^s\d+\.ts\?exp=\d+&sig=[\w-]{32}$/, "segment links are relative and signed");
      assert.match(m3u8, /#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES/);
      // blocking playlist reload (hls.js asks for the next segment with _HLS_msn): answered once it is listed
      const next = (await ringOf(svc, id))!.nextSeq;
      const asked = Date.now();
      const blocked = await (await get(`${body.playlistUrl}&_HLS_msn=${next}`)).text();
      assert.ok(blocked.includes(`\ns${next}.ts?`), `the answer lists segment ${next} (after ${Date.now() - asked} ms)`);
      assert.equal((await get(`${body.playlistUrl}&_HLS_msn=${next + 5}`)).status, 400, "too far ahead");
      const segUrl = new URL(uris[0], new URL(body.playlistUrl, "http://x")).toString();
      const seg = await get(segUrl);
      assert.equal(seg.status, 200);
      assert.equal(seg.headers.get("content-type"), "video/mp2t");
      const bytes = Buffer.from(await seg.arrayBuffer());
      assert.equal(bytes[0], 0x47, "an MPEG-TS packet");

      // refused: no session (401), no/bad/expired/foreign signature (403), a signed name that is not there (404)
      assert.equal((await get(segUrl, {})).status, 401, "a valid link without a session");
      const u = new URL(segUrl);
      const segName = u.pathname.split("/").pop()!;
      const tampered = new URL(segUrl);
      tampered.searchParams.set("sig", `${u.searchParams.get("sig")!.slice(0, 31)}${u.searchParams.get("sig")!.endsWith("A") ? "B" : "A"}`);
      assert.equal((await get(tampered.toString())).status, 403, "tampered signature");
      assert.equal((await get(`/api/preview/${id}/${segName}`)).status, 403, "no signature");
      const later = new URL(segUrl);
      later.searchParams.set("exp", String(Number(u.searchParams.get("exp")) + 60));
      assert.equal((await get(later.toString())).status, 403, "a longer expiry than signed");
      const links = await previewLinks(svc.dataDir);
      assert.equal((await get(links.link(id, segName, { absolute: true, now: Date.now() - 3 * 3600_000 }))).status, 403, "expired");
      const otherSeq = Number(/^s(\d+)/.exec(segName)![1]) + 1;
      assert.equal((await get(`/api/preview/${id}/s${otherSeq}.ts${u.search}`)).status, 403, "another segment's signature");
      assert.equal((await get(links.link("someone-else", segName, { absolute: true }).replace("someone-else", id))).status, 403, "another task's signature");
      assert.equal((await get(links.link(id, "s999999.ts", { absolute: true }))).status, 404, "signed but absent");
      assert.equal((await get(links.link("no-such-task", "index.m3u8", { absolute: true }))).status, 404, "signed, unknown task");
      assert.equal((await get(links.link(id, "run.csv", { absolute: true }))).status, 404, "only the playlist and segments are served");

      // ---- evidence clips: the QR code's REJECT frames ----
      await rx.until((r) => r.some((x) => (x.body as Json).frameDetail?.riskLevel === "REJECT"), 40_000);
      const clipsDir = path.join(svc.dataDir, "media", id, "clips");
      // the first hits come as the pull joins, before the preview has CLIP_BEFORE_SEC: that clip is partial; the next loop's is whole
      const metas = async () => Promise.all((await fs.readdir(clipsDir).catch(() => [] as string[])).filter((n) => n.endsWith(".json")).map(async (n) => JSON.parse(await fs.readFile(path.join(clipsDir, n), "utf8")) as Json));
      const meta = await waitFor(async () => (await metas()).find((m) => !m.partial), 40_000, 250);
      const clipFile = path.join(clipsDir, `${meta.n}.mp4`);
      const { duration, codecs } = probe(clipFile);
      const times = (meta.frames as Array<{ at: string }>).map((f) => Date.parse(f.at));
      const spanSec = (Math.max(...times) - Math.min(...times)) / 1000;
      const expected = BEFORE + AFTER + spanSec;
      const longest = Math.max(...ring.segments.map((s) => s.durationSec));
      console.log(`# clip ${meta.n}: ${duration.toFixed(2)} s for frames ${JSON.stringify(meta.frames.map((f: Json) => f.index))} (span ${spanSec.toFixed(2)} s; asked ${expected.toFixed(2)} s; longest segment ${longest} s)`);
      assert.ok(Math.abs(duration - expected) <= longest + 0.3, `clip duration ${duration} ≈ before + after (+ the frames' span) = ${expected} within one segment`);
      assert.ok(Math.abs(duration - meta.durationSec) < 0.5, "the meta's duration is the file's");
      assert.ok(Date.parse(meta.startAt) <= Math.min(...times) && Date.parse(meta.endAt) >= Math.max(...times), "the clip holds its frames");
      assert.deepEqual(codecs.sort(), ["aac", "h264"], "stream copy of the source's H.264/AAC");

      const listed = (await (await info(new Request(`http://x/api/preview/${id}`, { headers: session }), params({ requestId: id }))).json()) as Json;
      const item = (listed.clips as Json[]).find((c) => c.n === meta.n);
      assert.ok(item, "the clip is listed");
      const clipUrl = new URL(item.url, "http://x");
      const ranged = await clip(new Request(clipUrl, { headers: { ...session, range: "bytes=0-99" } }), params({ requestId: id, clip: `${meta.n}.mp4` }));
      assert.equal(ranged.status, 206);
      assert.equal((await ranged.arrayBuffer()).byteLength, 100);
      assert.equal((await clip(new Request(clipUrl), params({ requestId: id, clip: `${meta.n}.mp4` }))).status, 401, "a clip needs a session");
      const badClip = new URL(clipUrl);
      badClip.searchParams.set("sig", "x".repeat(32));
      assert.equal((await clip(new Request(badClip, { headers: session }), params({ requestId: id, clip: `${meta.n}.mp4` }))).status, 403);

      // ---- Close: the playlist is finished; retention deletes preview and clips with the task ----
      assert.equal((await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id })).code, 1100);
      await svc.engine!.streams.whenEnded(id);
      assert.equal((await ringOf(svc, id))?.ended, true, "EXT-X-ENDLIST once the stream ended");
      await rx.until((r) => r.some((x) => x.body.statCode === 1), 30_000);
      const sweep = await new RetentionJob({ store: svc.engine!.ctx.store, mediaRoot: path.join(svc.dataDir, "media"), retentionHours: 0, sweepMinutes: 60 }).sweep();
      assert.ok(sweep.tasks >= 1, JSON.stringify(sweep));
      await assert.rejects(fs.stat(path.join(svc.dataDir, "media", id)), "preview and clips went with the task");
    } finally {
      await rx.close();
      await src.close();
    }
  });

  test("a source that is not H.264/AAC (Sorenson Spark + MP3 over RTMP) gets a small H.264/AAC preview", async () => {
    const server = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1" });
    const key = `flv1-${process.pid}`;
    // encoded as it is published (an FLV file of this codec cannot be looped: it has no seek index); 320×180 at 10 fps costs little
    const publisher = startFfmpeg(["-re", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=10", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=22050", "-c:v", "flv1", "-g", "10", "-q:v", "8", "-c:a", "libmp3lame", "-b:a", "32k", "-f", "flv", server.rtmpUrl(key)]);
    const rx = await startReceiver();
    try {
      await waitFor(async () => server.isPublishing(key), 15_000, 50);
      const ack = await svc.post("/videostream/v4", streamRequest(server.rtmpUrl(key), rx.url));
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = ack.requestId as string;
      const ring = await waitFor(async () => {
        const r = await ringOf(svc, id);
        return r && r.segments.length >= 2 ? r : null;
      }, 40_000, 200);
      const seg = path.join(svc.dataDir, "media", id, "preview", `s${ring.segments[0].seq}.ts`);
      assert.deepEqual(probe(seg).codecs.sort(), ["aac", "h264"], "transcoded preview");
      assert.ok(svc.engine!.streams.health(id)!.frames.captured >= 1, "detection runs on the same pull");
      assert.equal((await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: id })).code, 1100);
    } finally {
      await rx.close();
      await publisher.stop("aborted");
      await server.close();
    }
  });

  test("a file's REJECT frames keep clips cut from the downloaded file (before/after, merged when close), listed and served signed", async () => {
    // a QR code from 10 to 13 s: REJECT frames a second apart share one clip, from 3 s before the first to 3 s after the last
    const file = await makeVideo({ name: "file-clips", durationSec: 30, audio: "tone", qr: { text: "https://spam.example/file-clip", fromSec: 10, toSec: 13 }, text: undefined });
    const web = await startStaticServer(mediaDir());
    try {
      // this suite keeps no results (RESULT_RETENTION_HOURS 0: Query refuses), so the result comes by callback
      const rx = await startReceiver();
      const ack = await svc.post("/video/v4", { accessKey: TEST_KEY, appId: "default", eventId: "video", imgType: "QRCODE", audioType: "NONE", callback: rx.url, data: { btId: "clip-file-1", tokenId: "u1", url: `${web.url}/${path.basename(file)}`, detectFrequency: 1 } });
      assert.equal(ack.code, 1100, JSON.stringify(ack));
      const id = String(ack.requestId);
      const q = (await rx.until((r) => r.length > 0, 120_000))[0].body as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      await rx.close();
      assert.equal(q.code, 1100, JSON.stringify(q).slice(0, 500));
      const rejects = (q.frameDetail as Array<{ riskLevel: string; requestId: string; time: number }>).filter((f) => f.riskLevel === "REJECT");
      assert.ok(rejects.length >= 2, JSON.stringify(q.frameDetail));
      const times = rejects.map((f) => f.time).sort((a, b) => a - b);

      const info = (await (await (await handler("[requestId]"))(new Request(`http://x/api/preview/${id}`, { headers: session }), { params: Promise.resolve({ requestId: id }) })).json()) as PreviewInfo;
      assert.equal(info.available, false, "a file has no live preview");
      assert.equal(info.clips.length, 1, JSON.stringify(info.clips));
      const clip = info.clips[0];
      const first = Number(/_v(\d+)$/.exec(rejects.sort((a, b) => a.time - b.time)[0].requestId)?.[1]);
      assert.equal(clip.n, first, "named after its first REJECT frame");
      assert.deepEqual(clip.offsets && [clip.offsets.fromSec, clip.offsets.toSec], [Math.max(0, times[0] - BEFORE), Math.min(30, times.at(-1)! + AFTER)]);
      assert.equal(clip.offsets?.copied, true, "H.264/AAC is stream-copied");
      const mp4 = path.join(svc.dataDir, "media", id, "clips", `${clip.n}.mp4`);
      const p = probe(mp4);
      // a copy starts at the keyframe at or before the span's start: never shorter, at most a GOP longer
      assert.ok(p.duration >= times.at(-1)! + AFTER - (times[0] - BEFORE) - 0.5 && p.duration <= times.at(-1)! + AFTER - (times[0] - BEFORE) + 3, `clip ${p.duration} s`);
      assert.deepEqual(p.codecs.sort(), ["aac", "h264"]);
      // served under its signed link with a session only
      const u = new URL(clip.url, "http://x");
      const serve = await handler("[requestId]/clips/[clip]");
      const ok = await serve(new Request(`http://x${u.pathname}${u.search}`, { headers: session }), { params: Promise.resolve({ requestId: id, clip: `${clip.n}.mp4` }) });
      assert.equal(ok.status, 200);
      const anon = await serve(new Request(`http://x${u.pathname}${u.search}`), { params: Promise.resolve({ requestId: id, clip: `${clip.n}.mp4` }) });
      assert.equal(anon.status, 401);
      // the downloaded file itself is gone: only the clip stays
      assert.equal(await fs.stat(path.join(svc.dataDir, "media", id, "source")).then(() => true, () => false), false);
    } finally {
      await web.close();
    }
  });
});
