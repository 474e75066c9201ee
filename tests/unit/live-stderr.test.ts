import { test } from "node:test";
import assert from "node:assert/strict";
import { buildLiveArgs, liveInputKind } from "../../server/ingest/live-args";
import { classifyLiveFailure, LiveStderrParser } from "../../server/ingest/live-stderr";

// Lines as ffmpeg 5.1 printed them on this machine.
const STDERR: Record<string, string> = {
  refused: "[tcp @ 0x55] Connection to tcp://127.0.0.1:1?tcp_nodelay=0 failed: Connection refused\n[rtmp @ 0x55] Cannot open connection tcp://127.0.0.1:1?tcp_nodelay=0\nrtmp://127.0.0.1:1/live/x: Connection refused",
  http404: "[http @ 0x56] HTTP error 404 Not Found\nhttp://127.0.0.1:41935/nothing: Server returned 404 Not Found",
  http403: "http://h/x.flv: Server returned 403 Forbidden (access denied)",
  dns: "[tcp @ 0x55] Failed to resolve hostname nonexistent.invalid: Name or service not known\nhttp://nonexistent.invalid/x.flv: Input/output error",
  connectTimeout: "[tcp @ 0x55] Connection to tcp://10.255.255.1:1935?tcp_nodelay=0 failed: Connection timed out\nrtmp://10.255.255.1/live/x: Connection timed out",
  rtmpNoStream: "rtmp://127.0.0.1:40833/live/nokey: Input/output error",
  flvNoStream: "http://127.0.0.1:41935/live/nokey.flv: Connection timed out",
  rtmpNotFound: "[rtmp @ 0x55] Server error: NetStream.Play.StreamNotFound\nrtmp://h/live/x: Operation not permitted",
  garbage: "http://127.0.0.1:1/garbage.flv: Invalid data found when processing input",
  noAudio: "Stream map '0:a:0' matches no streams.\nTo ignore this, add a trailing '?' to the map.",
  noVideo: "Stream map '0:v:0' matches no streams.\nTo ignore this, add a trailing '?' to the map.",
};

test("pull failures map to the contract §4 error codes", () => {
  const code = (k: string) => classifyLiveFailure(STDERR[k]).errorCode;
  assert.deepEqual(
    Object.fromEntries(Object.keys(STDERR).map((k) => [k, code(k)])),
    { refused: 3001, http404: 3001, http403: 3001, dns: 3001, connectTimeout: 3001, rtmpNoStream: 3003, flvNoStream: 3003, rtmpNotFound: 3003, garbage: 3002, noAudio: 3004, noVideo: 3002 },
  );
  assert.match(classifyLiveFailure(STDERR.http404).message, /404/);
  assert.equal(classifyLiveFailure("").errorCode, 3001);
});

test("the stderr parser reads frame pts, progress, mapping, declared tracks and duration", () => {
  const p = new LiveStderrParser();
  const lines = [
    "Input #0, flv, from 'rtmp://127.0.0.1:40833/live/s1':",
    "  Duration: 00:00:00.00, start: 1.023000, bitrate: N/A",
    "  Stream #0:0: Audio: aac (LC), 44100 Hz, mono, fltp, 64 kb/s",
    "  Stream #0:1: Video: h264 (High), yuv420p(progressive), 640x360 [SAR 1:1 DAR 16:9], 15 fps, 15 tbr, 1k tbn",
    "Input #1, lavfi, from 'anullsrc=r=16000:cl=mono,atrim=end_sample=0':",
    "  Duration: N/A, bitrate: N/A",
    "Stream mapping:",
    "  Stream #0:1 -> #0:0 (h264 (native) -> mjpeg (native))",
    "  Stream #0:0 -> #1:0 (aac (native) -> pcm_s16le (native))",
    "  Stream #1:0 -> #1:1 (copy)",
    "Output #0, image2pipe, to 'pipe:1':",
    "  Stream #0:0: Video: mjpeg, yuvj420p(pc, progressive), 640x360, q=2-31, 200 kb/s, 15 fps, 15 tbn",
    "[Parsed_showinfo_2 @ 0x55] n:   3 pts:   3000 pts_time:3.04    pos:   317481 fmt:yuvj420p sar:1/1 s:640x360 i:P iskey:1 type:I",
    "frame=    3 fps=2.8 q=5.0 size=      31kB time=00:01:03.71 bitrate=  69.4kbits/s speed=3.51x    ",
  ];
  const events = lines.map((l) => p.line(l));
  assert.equal(events.filter((e) => e.mapped).length, 1, "mapped once, on the first mapping of input 0");
  assert.ok(events[7].mapped);
  assert.equal(events[12].framePts, 3.04);
  assert.equal(events[13].progressSec, 63.71);
  assert.deepEqual([...p.mappedOutputs].sort(), [0, 1]);
  assert.equal(p.inputAudio && p.inputVideo, true);
  assert.equal(p.durationSec, 0, "live FLV declares no duration; the lavfi input's N/A is ignored");
  const vod = new LiveStderrParser();
  vod.line("Input #0, hls, from 'http://127.0.0.1:1/x/index.m3u8':");
  vod.line("  Duration: 00:00:06.04, start: 1.400000, bitrate: 0 kb/s");
  assert.equal(vod.durationSec, 6.04);
});

test("live args: one real stream per output, optional tracks only when both are wanted", () => {
  const both = buildLiveArgs({ url: "rtmp://h/live/k", frameIntervalSec: 2, audio: true, maxWidth: 1280, ioTimeoutMs: 10_000 });
  const a = both.args.join(" ");
  assert.match(a, /-rw_timeout 5000000 /, "half of ioTimeoutMs: ffmpeg waits it twice on FLV/RTMP");
  assert.match(a, /-map 0:v:0\? .*gte\(t-prev_selected_t,2\).*scale='min\(iw,1280\)':-2,showinfo.* pipe:1/);
  assert.match(a, /-map 0:a:0\? -map 1:a .*-c:a:1 copy -max_interleave_delta 1 .*pipe:3$/);
  assert.deepEqual([both.videoRequired, both.audioRequired], [false, false]);
  const audioOnly = buildLiveArgs({ url: "http://h/a.m3u8", frameIntervalSec: null, audio: true, maxWidth: 1280, ioTimeoutMs: 4000 });
  assert.ok(audioOnly.audioRequired && !audioOnly.frames);
  assert.doesNotMatch(audioOnly.args.join(" "), /lavfi|pipe:1|analyzeduration/);
  assert.match(audioOnly.args.join(" "), /-rw_timeout 4000000 .*-map 0:a:0 /);
  const framesOnly = buildLiveArgs({ url: "https://h/x.flv", frameIntervalSec: 5, audio: false, maxWidth: 640, ioTimeoutMs: 4000 });
  assert.ok(framesOnly.videoRequired && !framesOnly.audio);
  assert.doesNotMatch(framesOnly.args.join(" "), /pipe:3/);
  assert.deepEqual(["rtmp://h/a/b", "rtmps://h/a/b", "http://h/live/k.flv", "https://h/a/b.M3U8?t=1"].map(liveInputKind), ["rtmp", "rtmp", "http", "hls"]);
});
