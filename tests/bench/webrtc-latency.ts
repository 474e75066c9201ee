// Glass → callback latency of one live stream by its way in: RTMP (an x264 publisher, 2 s GOP, as OBS sends; and
// again with -tune zerolatency, no encoder lookahead), WHIP
// (chromium publishing a canvas to the ingest) and WHEP (chromium serving a canvas, pulled by the service). Every
// frame carries the wall-clock ms it was drawn at (webrtc-stamp.ts); the bench reads it back from the JPEG each
// callback names, so each figure is source → callback, the part the pull adds before capture (source → imgTime) and
// the detection itself (beginProcessTime → finishProcessTime, the floor no way in goes below). The RTMP path also
// gets its transport floor: a bare ffmpeg pull of the same publish, source → decoded frame.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { chromium, type Browser, type Page } from "@playwright/test";
import { startRtmpServer, type RtmpServer } from "../../server/demo/rtmp-server";
import { startTestService, TEST_KEY } from "../support/app";
import { startReceiver, waitFor, type Received } from "../support/net";
import { percentile } from "./stats";
import { DRAW_STAMP_JS, readStamp, readStampGray, STAMP_H, STAMP_W, stampedFrame, unwrapStamp } from "./webrtc-stamp";

const FPS = 15;
const GOP_SEC = 2;

const PAGE = `<!doctype html><meta charset="utf-8"><title>stamped source</title><script>
const stamped = () => {
  const c = document.createElement("canvas"); c.width = ${STAMP_W}; c.height = ${STAMP_H};
  const ctx = c.getContext("2d"); let frame = 0;
  const draw = () => { const stampMs = Date.now(); ${DRAW_STAMP_JS.replace(/\n/g, " ")} frame++; };
  draw(); setInterval(draw, ${Math.round(1000 / FPS)});
  return c.captureStream(${FPS});
};
const gathered = (pc) => new Promise((r) => { if (pc.iceGatheringState === "complete") r(); pc.addEventListener("icegatheringstatechange", () => pc.iceGatheringState === "complete" && r()); setTimeout(r, 3000); });
window.publish = async (url) => {
  const pc = new RTCPeerConnection();
  for (const t of stamped().getTracks()) pc.addTransceiver(t, { direction: "sendonly" });
  await pc.setLocalDescription(await pc.createOffer()); await gathered(pc);
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/sdp" }, body: pc.localDescription.sdp });
  await pc.setRemoteDescription({ type: "answer", sdp: await res.text() });
  window.pcs = [...(window.pcs ?? []), pc];
  return res.status;
};
window.answerWhep = async (offer) => {
  const pc = new RTCPeerConnection();
  await pc.setRemoteDescription({ type: "offer", sdp: offer });
  const [track] = stamped().getVideoTracks();
  const tr = pc.getTransceivers().find((x) => x.receiver.track.kind === "video");
  tr.direction = "sendonly"; await tr.sender.replaceTrack(track);
  await pc.setLocalDescription(await pc.createAnswer()); await gathered(pc);
  window.pcs = [...(window.pcs ?? []), pc];
  return pc.localDescription.sdp;
};
window.stopAll = () => { for (const pc of window.pcs ?? []) pc.close(); window.pcs = []; };
</script>`;

interface PathFigures {
  frames: number;
  unreadable: number;
  glassToCallbackP50Ms: number;
  glassToCallbackP95Ms: number;
  glassToCaptureP50Ms: number;
  detectP50Ms: number;
  /** the service's own capture → callback, as liveLatency measures it */
  captureToCallbackP50Ms: number;
  /** submit → the first frame's callback (the join: connection, a keyframe, the first capture) */
  joinToFirstCallbackMs: number;
  /** how old the first frame called back was (source → its callback): a GOP cache shows here */
  firstFrameGlassToCallbackMs: number | null;
  /** source → a bare ffmpeg pull's decoded frame (RTMP only): the transport floor */
  bareTransportP50Ms?: number;
}

const imgTimeMs = (s: string) => new Date(s.replace(" ", "T")).getTime();
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Moderates `url` (NORMAL rtmp or WEBRTC whep) until `frames` frames past the first three are called back. */
async function measure(svc: Awaited<ReturnType<typeof startTestService>>, streamType: string, url: string, frames: number): Promise<PathFigures> {
  const rx = await startReceiver();
  try {
    const t0 = Date.now();
    const ack = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "bench", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType, url, tokenId: "bench", detectFrequency: 1, returnAllImg: 1 } });
    if (ack.code !== 1100) throw new Error(`${streamType} submit: ${JSON.stringify(ack)}`);
    const results = (r: Received[]) => r.filter((x) => x.body.statCode === 0 && x.body.frameDetail);
    await rx.until((r) => results(r).length >= frames + 3, 180_000);
    await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId });
    const first = results(rx.received)[0];
    const firstStamp = await readStamp(Buffer.from(await (await fetch((first.body.frameDetail as Json).imgUrl)).arrayBuffer()));
    const join = { joinToFirstCallbackMs: first.at - t0, firstFrameGlassToCallbackMs: firstStamp === null ? null : first.at - unwrapStamp(firstStamp, first.at) };
    const got = results(rx.received).slice(3, frames + 3);
    const rows = await Promise.all(
      got.map(async (r) => {
        const d = r.body.frameDetail as Json;
        const stamp = await readStamp(Buffer.from(await (await fetch(d.imgUrl)).arrayBuffer()));
        if (stamp === null) return null;
        const drawn = unwrapStamp(stamp, r.at);
        return { callback: r.at - drawn, capture: imgTimeMs(d.auxInfo.imgTime) - drawn, detect: d.auxInfo.finishProcessTime - d.auxInfo.beginProcessTime, own: r.at - imgTimeMs(d.auxInfo.imgTime) };
      }),
    );
    const ok = rows.filter((x) => x !== null);
    const sorted = (k: keyof (typeof ok)[number]) => ok.map((x) => x[k]).sort((a, b) => a - b);
    return { ...join, frames: ok.length, unreadable: rows.length - ok.length, glassToCallbackP50Ms: percentile(sorted("callback"), 50), glassToCallbackP95Ms: percentile(sorted("callback"), 95), glassToCaptureP50Ms: percentile(sorted("capture"), 50), detectP50Ms: percentile(sorted("detect"), 50), captureToCallbackP50Ms: percentile(sorted("own"), 50) };
  } finally {
    await rx.close();
  }
}

/**
 * An x264 publisher of stamped raw frames drawn in real time (veryfast, 2 s GOP, no B-frames; OBS-like). Frames are
 * timed by the wall clock as they reach ffmpeg, as a capture card's are (a late timer must not slow media time).
 */
function startStampedRtmp(url: string, zerolatency: boolean): { proc: ChildProcess; stop(): void } {
  const tune = zerolatency ? ["-tune", "zerolatency"] : [];
  const proc = spawn("ffmpeg", ["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${STAMP_W}x${STAMP_H}`, "-use_wallclock_as_timestamps", "1", "-i", "pipe:0", "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "veryfast", ...tune, "-bf", "0", "-g", String(GOP_SEC * FPS), "-pix_fmt", "yuv420p", "-f", "flv", url], { stdio: ["pipe", "ignore", "ignore"] });
  proc.stdin!.on("error", () => undefined);
  let n = 0;
  const timer = setInterval(() => proc.stdin!.write(stampedFrame(Date.now(), n++)), Math.round(1000 / FPS));
  return { proc, stop: () => (clearInterval(timer), proc.stdin!.end(), proc.kill("SIGKILL")) };
}

/** Source → decoded frame of a bare `ffmpeg -i <rtmp>` (no detection, no capture plan): p50 over `frames`. */
async function bareTransportMs(url: string, frames: number): Promise<number> {
  const size = STAMP_W * STAMP_H;
  // probed and threaded as the service's own pull (server/ingest/live-args.ts): ffmpeg's default 5 s probe keeps ≈ 1 s buffered
  const proc = spawn("ffmpeg", ["-v", "error", "-analyzeduration", "2000000", "-i", url, "-fps_mode", "passthrough", "-threads", "1", "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"], { stdio: ["ignore", "pipe", "ignore"] });
  const lat: number[] = [];
  let buf = Buffer.alloc(0);
  let seen = 0;
  await new Promise<void>((resolve) => {
    // synchronous per chunk: a frame's time is its chunk's arrival
    proc.stdout!.on("data", (chunk: Buffer) => {
      const at = Date.now();
      buf = Buffer.concat([buf, chunk]);
      while (buf.length >= size) {
        const frame = buf.subarray(0, size);
        buf = buf.subarray(size);
        // past the join burst (a GOP cache): every 5th frame
        if (++seen < 2 * GOP_SEC * FPS || seen % 5) continue;
        const stamp = readStampGray(frame, { width: STAMP_W, height: STAMP_H });
        if (stamp !== null) lat.push(at - unwrapStamp(stamp, at));
        if (lat.length >= frames) return resolve();
      }
    });
    proc.on("exit", () => resolve());
  });
  proc.kill("SIGKILL");
  return percentile(lat.sort((a, b) => a - b), 50);
}

/** The ways in `BENCH_WEBRTC_WAYS` names (comma-separated: rtmp, rtmpZerolatency, whip, whipViaWhep, whep), or all. */
const wanted = (way: string) => {
  const list = process.env.BENCH_WEBRTC_WAYS?.split(",").map((w) => w.trim()).filter(Boolean);
  return !list?.length || list.includes(way);
};

export async function benchWebrtcLatency(frames = Number(process.env.BENCH_WEBRTC_FRAMES ?? 20)): Promise<Record<string, unknown>> {
  const load = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const page = http.createServer((_q, r) => r.writeHead(200, { "content-type": "text/html" }).end(PAGE));
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", r));
  let browser: Browser | null = null;
  let ingest: RtmpServer | null = null;
  let whep: http.Server | null = null;
  const svc = await startTestService();
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-features=WebRtcHideLocalIpsWithMdns", "--disable-background-timer-throttling", "--disable-renderer-backgrounding"] });
    const tab: Page = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
    ingest = await startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1", whip: true });

    const rtmpPath = async (key: string, zerolatency: boolean): Promise<PathFigures> => {
      const pub = startStampedRtmp(ingest!.rtmpUrl(key), zerolatency);
      try {
        await waitFor(async () => ingest!.isPublishing(key), 15_000);
        return { ...(await measure(svc, "NORMAL", ingest!.rtmpUrl(key), frames)), bareTransportP50Ms: await bareTransportMs(ingest!.rtmpUrl(key), frames) };
      } finally {
        pub.stop();
      }
    };
    const rtmp = wanted("rtmp") ? await rtmpPath("rtmp-stamped", false) : null;
    const rtmpZerolatency = wanted("rtmpZerolatency") ? await rtmpPath("rtmp-stamped-zl", true) : null;

    let whip: PathFigures | null = null;
    let whipViaWhep: PathFigures | null = null;
    if (wanted("whip") || wanted("whipViaWhep")) {
      const status = await tab.evaluate((u) => (window as unknown as { publish(u: string): Promise<number> }).publish(u), `http://127.0.0.1:${ingest.httpPort}/whip/whip-stamped`);
      if (status !== 201) throw new Error(`WHIP publish answered ${status}`);
      await waitFor(async () => ingest!.isPublishing("whip-stamped"), 60_000);
      if (wanted("whip")) whip = await measure(svc, "NORMAL", ingest.rtmpUrl("whip-stamped"), frames);
      // the same publish played back by the ingest over WHEP: no transcode, no RTMP hop
      if (wanted("whipViaWhep")) whipViaWhep = await measure(svc, "WEBRTC", `http://127.0.0.1:${ingest.httpPort}/whep/whip-stamped`, frames);
      await tab.evaluate(() => (window as unknown as { stopAll(): void }).stopAll());
    }

    whep = http.createServer(async (req, res) => {
      if (req.method !== "POST") return void res.writeHead(200).end();
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await tab.evaluate((o) => (window as unknown as { answerWhep(o: string): Promise<string> }).answerWhep(o), Buffer.concat(chunks).toString("utf8"));
      res.writeHead(201, { "content-type": "application/sdp", location: "/whep/s" }).end(answer);
    });
    await new Promise<void>((r) => whep!.listen(0, "127.0.0.1", r));
    const whepFig = wanted("whep") ? await measure(svc, "WEBRTC", `http://127.0.0.1:${(whep.address() as AddressInfo).port}/whep/cam`, frames) : null;

    const diff = (a: PathFigures | null, b: PathFigures | null) => (a && b ? Math.round(a.glassToCallbackP50Ms - b.glassToCallbackP50Ms) : null);
    const ahead = (p: PathFigures | null) => diff(rtmp, p);
    // at the join, where an RTMP reader waits on its GOP (or starts from the server's cached one): submit → first callback
    const joinAhead = (a: PathFigures | null, b: PathFigures | null) => (a && b ? Math.round(a.joinToFirstCallbackMs - b.joinToFirstCallbackMs) : null);
    return {
      loadAverageAtStart: load,
      loadAverageAtEnd: os.loadavg().map((l) => Math.round(l * 100) / 100),
      gopSec: GOP_SEC,
      rtmp,
      rtmpZerolatency,
      whip,
      whipViaWhep,
      whep: whepFig,
      whipAheadOfRtmpP50Ms: ahead(whip),
      whipViaWhepAheadOfRtmpP50Ms: ahead(whipViaWhep),
      whipViaWhepAheadOfZerolatencyP50Ms: diff(rtmpZerolatency, whipViaWhep),
      whepAheadOfZerolatencyP50Ms: diff(rtmpZerolatency, whepFig),
      whepAheadOfRtmpP50Ms: ahead(whepFig),
      joinAheadMs: { whepOfRtmp: joinAhead(rtmp, whepFig), whepOfZerolatency: joinAhead(rtmpZerolatency, whepFig), whipViaWhepOfRtmp: joinAhead(rtmp, whipViaWhep), whipViaWhepOfZerolatency: joinAhead(rtmpZerolatency, whipViaWhep) },
      target: `WebRTC below RTMP by ≥ the GOP wait (${GOP_SEC * 1000} ms): at the join (joinAheadMs), where RTMP has one`,
    };
  } finally {
    await browser?.close();
    await ingest?.close();
    await new Promise<void>((r) => (whep ? whep.close(() => r()) : r()));
    page.close();
    await svc.close();
  }
}
