// The live pull's frame output runs on one thread: with ffmpeg's default (auto) each captured frame reached us ≈ 1 s
// late (1.15 s → 0.14 s glass → JPEG on a zerolatency RTMP publish; `npm run bench webrtcLatency`, docs/performance.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { buildLiveArgs } from "../../server/ingest/live-args";

const outputOf = (args: string[], sink: string) => {
  const end = args.indexOf(sink);
  const start = args.lastIndexOf("-map", end);
  return args.slice(start, end + 1);
};

test("the frames output is single-threaded, in every capture mode, and only that output", () => {
  for (const o of [{ frameIntervalSec: 1, keyframesOnly: false }, { frameIntervalSec: 3, keyframesOnly: true }]) {
    for (const audio of [false, true]) {
      const { args } = buildLiveArgs({ url: "rtmp://127.0.0.1/live/x", audio, maxWidth: 1280, ioTimeoutMs: 10_000, ...o });
      const frames = outputOf(args, "pipe:1");
      const at = frames.indexOf("-threads");
      assert.ok(at > 0 && frames[at + 1] === "1", frames.join(" "));
      assert.ok(at < frames.indexOf("-c:v"), "set on the output, before its encoder");
      assert.ok(args.indexOf("-threads") > args.indexOf("-i"), "an output option: the decoder keeps its threads");
      if (audio) assert.ok(!outputOf(args, "pipe:3").includes("-threads"));
    }
  }
});
