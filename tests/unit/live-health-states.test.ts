// A source lost for good (issue: a false "recovered" after the publisher was killed): a run that maps stale
// stream headers but delivers no media is not a connection, its failure reason is the real error line (never
// ffmpeg's "Last message repeated" note); "no media for N s" counts from the last media or the start; the
// dashboard's pill calls a stream "live" only while media flows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { classifyLiveFailure, LiveStderrParser } from "../../server/ingest/live-stderr";
import { liveEndOf } from "../../server/ingest/live-outcome";
import type { RunOutcome } from "../../server/ingest/live-run";
import { StreamHealthMonitor, type NewHealthEvent } from "../../server/health/monitor";
import { healthTone, HEALTH_UNREPORTED_MS, markUnreported, type StreamHealthSnapshot } from "../../lib/stream-health";
import { mediaStateOf, mediaStateText, noMediaNow, noPictureText, unreportedText } from "../../components/health/format";

// ffmpeg 5.1's stderr, captured from a pull retried after its RTMP publisher was killed: the ingest server still
// answered with the stream's headers (no media), ffmpeg mapped the streams, then failed to open the preview output.
const STALE_HEADERS_RUN = [
  "-vsync is deprecated. Use -fps_mode",
  "[flv @ 0x55cbfab4b400] Could not find codec parameters for stream 1 (Video: h264, none, 519 kb/s): unspecified size",
  "Consider increasing the value for the 'analyzeduration' (2000000) and 'probesize' (10000000) options",
  "Input #0, flv, from 'rtmp://127.0.0.1:40177/live/repro-c3eac8':",
  "  Metadata:",
  "    |RtmpSampleAccess: false",
  "    encoder         : Lavf59.27.100",
  "  Duration: 00:00:00.00, start: 0.000000, bitrate: N/A",
  "  Stream #0:0: Audio: aac, 44100 Hz, stereo, fltp, 96 kb/s",
  "  Stream #0:1: Video: h264, none, 519 kb/s, 15 fps, 1k tbr, 1k tbn",
  "Input #1, lavfi, from 'anullsrc=r=16000:cl=mono,atrim=end_sample=0':",
  "  Duration: N/A, bitrate: N/A",
  "  Stream #1:0: Audio: pcm_u8, 16000 Hz, mono, u8, 128 kb/s",
  "[segment @ 0x55cbfab77580] dimensions not set",
  "Could not write header for output file #2 (incorrect codec parameters ?): Invalid argument",
  "Error initializing output stream 2:1 -- ",
  "Stream mapping:",
  "  Stream #0:1 -> #0:0 (h264 (native) -> mjpeg (native))",
  "  Stream #0:0 -> #1:0 (aac (native) -> pcm_s16le (native))",
  "  Stream #1:0 -> #1:1 (copy)",
  "  Stream #0:1 -> #2:0 (copy)",
  "  Stream #0:0 -> #2:1 (copy)",
  "    Last message repeated 1 times",
];

// The run the publisher's death ended: I/O errors, each folded by a repeat note, then the flush of what had come.
const LOST_RUN = [
  "rtmp://127.0.0.1:40177/live/repro-c3eac8: Input/output error",
  "    Last message repeated 1 times",
  "frame=    6 fps=0.5 q=4.0 Lq=-1.0 size=     105kB time=00:00:05.20 bitrate= 165.4kbits/s speed=0.39x    ",
  "video:432kB audio:221kB subtitle:0kB other streams:0kB global headers:0kB muxing overhead: unknown",
  "    Last message repeated 1 times",
];

test("stale headers: the streams are mapped, yet the run got no media; the reason is the real error line", () => {
  const parser = new LiveStderrParser();
  const events = STALE_HEADERS_RUN.map((l) => parser.line(l));
  assert.equal(events.filter((e) => e.mapped).length, 1, "mapped: the outputs were set up");
  const stderr = STALE_HEADERS_RUN.join("\n");
  const run: RunOutcome = { result: { code: 1, signal: null, stdout: Buffer.alloc(0), stderr, stoppedBy: null, stdoutTruncated: false, spawnError: null }, parser, started: false, stalled: false, restart: false, longGop: false };
  const end = liveEndOf(run, { isHls: false, bytesIn: 0 });
  assert.equal(end.reason, "failed");
  assert.equal(end.reason === "failed" && end.gotData, false, "no media bytes: not data, so the retry count is not reset");
  const why = classifyLiveFailure(stderr);
  assert.doesNotMatch(why.message, /Last message repeated/);
  assert.match(why.message, /Could not find codec parameters for stream 1/);
  assert.equal(classifyLiveFailure(LOST_RUN.join("\n")).message, "rtmp://127.0.0.1:40177/live/repro-c3eac8: Input/output error");
  assert.equal(classifyLiveFailure("    Last message repeated 3 times\n").message, "ffmpeg failed without a message");
});

function monitor() {
  const events: NewHealthEvent[] = [];
  const counters = () => ({ phase: "running" as const, frames: { captured: 0, checked: 0, notChecked: 0, waiting: 0, detecting: 0 }, segments: { captured: 0, checked: 0, notChecked: 0, skipped: 0, waiting: 0, detecting: 0 } });
  const mon = new StreamHealthMonitor({ requestId: "r", cadenceSec: 0.05, retries: 12, audioPulled: true, source: { counters, meter: () => null }, sink: { event: (e) => void events.push(e), snapshot: () => undefined } });
  return { mon, events, tick: () => (mon as unknown as { tick(): void }).tick() };
}

test("never connected: 'no media' counts from the start across retries, not from the flag or the latest retry", async () => {
  const { mon, events, tick } = monitor();
  const start = Date.now();
  mon.connecting(0);
  mon.pullEnded({ reason: "failed", errorCode: 3003, message: "timed out", gotData: false }, { attempt: 1, delayMs: 10 });
  await new Promise((r) => setTimeout(r, 150));
  mon.connecting(1);
  // past 2 cadences and the first connection's 10 s grace, without waiting for it: the grace is the monitor's
  (mon as unknown as { startedAt: number }).startedAt -= 11_000;
  tick();
  const s = mon.snapshot();
  assert.ok(s.flagged, "flagged");
  assert.equal(s.lastMediaAt, null);
  const from = Date.parse(s.flagged.noMediaSince!);
  assert.ok(Math.abs(from - (start - 11_000)) < 100, "counted from the start");
  assert.match(s.flagged.message, /^no media for 11 s$/);
  assert.deepEqual(events.map((e) => e.kind), ["retrying", "stalled"], "no connected, no source lost: it never had media");
});

const snap = (o: Partial<Omit<StreamHealthSnapshot, "pull">> & { pull?: Partial<StreamHealthSnapshot["pull"]> }): StreamHealthSnapshot => {
  const { pull, ...rest } = o;
  const zero = { captured: 0, checked: 0, notChecked: 0, waiting: 0, detecting: 0 };
  return {
    requestId: "r", phase: "running", at: "2026-01-01T10:01:00.000Z", frames: zero, segments: { ...zero, skipped: 0 }, cadenceSec: 3, lastMediaAt: null, flagged: null,
    input: { fps: null, kbps: null }, audio: { pulled: true, levelDb: null, silent: false, silentSince: null }, lastError: null,
    pull: { state: "connected", attempt: 0, of: 12, nextAttemptAt: null, since: "2026-01-01T10:00:00.000Z", endReason: null, endErrorCode: null, ...pull },
    ...rest,
  };
};

test("'no media for N s' on the dashboard: from the last media or the start, never negative, ticking with the clock", () => {
  const at = Date.parse("2026-01-01T10:01:00.000Z");
  // never connected: started 10:00:00, flagged at 10:00:50, snapshot at 10:01:00
  const never = snap({ pull: { state: "retrying", attempt: 5 }, flagged: { since: "2026-01-01T10:00:50.000Z", noMediaSince: "2026-01-01T10:00:00.000Z", message: "no media for 60 s" } });
  assert.equal(noMediaNow(never, at), "no media for 60 s");
  assert.equal(noMediaNow(never, at + 37_000), "no media for 97 s", "97 s after the start, not 47 s after the flag");
  assert.equal(noMediaNow(never, at - 2_000), "no media for 60 s", "a browser clock behind the server's: never less than the server's figure");
  // media came, then stopped at 10:00:40: from the last media, growing while it lasts
  const lost = snap({ lastMediaAt: "2026-01-01T10:00:40.000Z", flagged: { since: "2026-01-01T10:00:47.000Z", noMediaSince: "2026-01-01T10:00:40.000Z", message: "no media for 20 s" } });
  assert.deepEqual([0, 5_000, 15_000].map((d) => noMediaNow(lost, at + d)), ["no media for 20 s", "no media for 25 s", "no media for 35 s"]);
  // a snapshot stored before noMediaSince existed: its last media
  assert.equal(noMediaNow(snap({ lastMediaAt: "2026-01-01T10:00:40.000Z", flagged: { since: "2026-01-01T10:00:47.000Z", message: "x" } }), at), "no media for 20 s");
  assert.equal(noMediaNow(snap({}), at), null);
});

test("media state: 'live' only while media flows; connecting, retrying and no media are said as such", () => {
  const at = Date.parse("2026-01-01T10:01:00.000Z");
  assert.equal(mediaStateOf(null), null, "not known");
  assert.equal(mediaStateOf(snap({})), "live");
  const retrying = snap({ pull: { state: "retrying", attempt: 5 }, flagged: { since: "2026-01-01T10:00:50.000Z", noMediaSince: "2026-01-01T10:00:00.000Z", message: "" } });
  assert.equal(mediaStateOf(retrying), "retrying");
  assert.equal(mediaStateText(retrying, at), "retrying 5 of 12");
  assert.equal(mediaStateText(snap({ pull: { state: "connecting" } }), at), "connecting");
  const quiet = snap({ lastMediaAt: "2026-01-01T10:00:40.000Z", flagged: { since: "2026-01-01T10:00:47.000Z", noMediaSince: "2026-01-01T10:00:40.000Z", message: "" } });
  assert.equal(mediaStateOf(quiet), "no-media");
  assert.equal(mediaStateText(quiet, at), "no media for 20 s");
  assert.equal(noPictureText(retrying), "no media yet");
  assert.equal(noPictureText(quiet), "source lost");
});

test("a running stream whose health stops coming is no longer 'live': 'no report for N s' from the last receipt, from the last receipt", () => {
  const received = Date.parse("2026-01-01T12:00:00.000Z"); // the browser's clock (the snapshot's own `at` is the server's)
  const live = snap({});
  assert.equal(markUnreported(live, received, received + HEALTH_UNREPORTED_MS), live, "renewed within the limit: shown as it is");
  const old = markUnreported(live, received, received + HEALTH_UNREPORTED_MS + 1000);
  assert.equal(mediaStateOf(old), "no-report");
  assert.equal(healthTone(old), "warn", "never the green of a flowing stream");
  assert.equal(mediaStateText(old, received + 40_000), "no report for 40 s", "counted from the last report received, ticking");
  assert.equal(unreportedText(live, received + 40_000), null);
  // marked from the browser's receipt time, whatever the snapshot's own (server) time says
  assert.equal(old.unreported?.lastAt, new Date(received).toISOString());
  assert.notEqual(old.unreported?.lastAt, live.at);
  assert.equal(mediaStateOf(markUnreported(live, received, received + 16_000)), "no-report");
  // an ended pull is an answer, not a silence; and during server render (now 0) nothing is marked
  const ended = snap({ pull: { state: "ended", endReason: "closed" } });
  assert.equal(markUnreported(ended, received, received + 10 * HEALTH_UNREPORTED_MS), ended);
  assert.equal(markUnreported(live, received, 0), live);
});
