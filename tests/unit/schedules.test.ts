import assert from "node:assert/strict";
import { test } from "node:test";
import { maxAttempts, nextRetryDelayMs, RETRY_SCHEDULES } from "../../server/callback/schedules";

test("video-file schedule: 20 pushes, intervals of contract §3.7", () => {
  assert.equal(maxAttempts("video"), 20);
  assert.deepEqual(RETRY_SCHEDULES.video.slice(0, 4), [5, 10, 20, 30]);
  assert.equal(nextRetryDelayMs("video", 1), 5000);
  assert.equal(nextRetryDelayMs("video", 3), 20_000);
  assert.equal(nextRetryDelayMs("video", 19), 120_000);
  assert.equal(nextRetryDelayMs("video", 20), null, "no retry after the 20th attempt");
});

test("video-stream schedule: 12 retries after 5…60 s in 5 s steps", () => {
  assert.equal(maxAttempts("videostream"), 13);
  assert.deepEqual(RETRY_SCHEDULES.videostream, [5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60]);
  assert.equal(nextRetryDelayMs("videostream", 12), 60_000);
  assert.equal(nextRetryDelayMs("videostream", 13), null);
});

test("audio-stream schedule: at most 20 pushes", () => {
  assert.equal(maxAttempts("audiostream"), 20);
});

test("time scale shrinks every interval; attempt 0 has no delay", () => {
  assert.equal(nextRetryDelayMs("video", 2, 0.01), 100);
  assert.equal(nextRetryDelayMs("video", 0), null);
});
