// Issue #26.5: a stream or file the dashboard starts may name its end user (the contract's tokenId); it goes into the
// v4 request (the dashboard's own placeholder "dashboard" without one) and is validated at the edge.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FileSubmitInput, StreamStartInput } from "../../lib/dashboard-schemas";
import { toVideoRequest } from "../../server/dashboard/file-request";
import { toStreamRequest } from "../../server/dashboard/stream-request";

const file = { url: "https://cdn.example/v.mp4", captureMode: "detectFrequency" as const, captureValue: 2, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllAudio: false };
const stream = { kind: "video" as const, url: "rtmp://live.example/app/key", imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllText: false, returnFinishInfo: true };
const dataOf = (b: { ok: boolean; body?: Record<string, unknown> }) => (b.body?.data ?? {}) as Record<string, unknown>;

test("tokenId: carried into the v4 request, trimmed; without one the dashboard's placeholder", () => {
  assert.equal(dataOf(toVideoRequest({ ...file, tokenId: " user-42 " }, "bt", "http://cb")).tokenId, "user-42");
  assert.equal(dataOf(toVideoRequest(file, "bt", "http://cb")).tokenId, "dashboard");
  assert.equal(dataOf(toStreamRequest({ ...stream, tokenId: "user-42" }, "http://cb")).tokenId, "user-42");
  assert.equal(dataOf(toStreamRequest({ ...stream, kind: "audio", audioTypes: ["AUDIOPORN"], tokenId: "user-7" }, "http://cb")).tokenId, "user-7");
  assert.equal(dataOf(toStreamRequest({ ...stream, tokenId: "  " }, "http://cb")).tokenId, "dashboard");
});

test("tokenId: at most 64 characters, no control characters (a clear 400 from zod)", () => {
  assert.equal(FileSubmitInput.safeParse({ ...file, tokenId: "u".repeat(64) }).success, true);
  assert.equal(FileSubmitInput.safeParse({ ...file, tokenId: "u".repeat(65) }).success, false);
  assert.equal(StreamStartInput.safeParse({ ...stream, tokenId: "bad\nid" }).success, false);
  assert.equal(StreamStartInput.safeParse({ ...stream, tokenId: "用户-1" }).success, true);
});
