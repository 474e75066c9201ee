import { test } from "node:test";
import assert from "node:assert/strict";
import { MAX_CAPTURE_FRAMES, advancedFrequencyFor, normaliseFrequency, planCapture, type CapturePlan } from "../../server/ingest/capture-plan";

function times(plan: CapturePlan): number[] {
  assert.equal(plan.mode, "times");
  return plan.mode === "times" ? plan.times : [];
}

test("default cadence is every 5 s from 0, staying below the duration", () => {
  const plan = planCapture({ durationSec: 23 });
  assert.deepEqual(times(plan), [0, 5, 10, 15, 20]);
  assert.equal(plan.mode === "times" && plan.intervalSec, 5);
  assert.match(plan.reason, /default/);
  assert.deepEqual(times(planCapture({ durationSec: 20 })), [0, 5, 10, 15], "a time equal to the duration is past the last frame");
});

test("detectFrequency is floored, raised to 1 and capped at 60", () => {
  assert.deepEqual(times(planCapture({ durationSec: 10, detectFrequency: 3.9 })), [0, 3, 6, 9]);
  assert.deepEqual(times(planCapture({ durationSec: 3, detectFrequency: 0.2 })), [0, 1, 2]);
  assert.deepEqual(times(planCapture({ durationSec: 3, detectFrequency: 0 })), [0, 1, 2]);
  assert.deepEqual(times(planCapture({ durationSec: 200, detectFrequency: 90 })), [0, 60, 120, 180]);
  assert.equal(normaliseFrequency(Number.NaN), undefined);
  assert.deepEqual(times(planCapture({ durationSec: 11, detectFrequency: Number.NaN })), [0, 5, 10], "NaN → default");
});

test("a clip shorter than the cadence still yields the frame at 0", () => {
  assert.deepEqual(times(planCapture({ durationSec: 0.4 })), [0]);
  assert.deepEqual(times(planCapture({ durationSec: 0.04, checkFrameCount: 5 })).slice(0, 1), [0]);
});

test("advancedFrequency picks the band the duration falls in, boundaries inclusive on the upper side", () => {
  const a = { durationPoints: [300, 600], frequencies: [1, 5, 10] };
  assert.equal(advancedFrequencyFor(a, 299.9), 1);
  assert.equal(advancedFrequencyFor(a, 300), 1, "d ≤ p0 → f0");
  assert.equal(advancedFrequencyFor(a, 300.001), 5, "p0 < d ≤ p1 → f1");
  assert.equal(advancedFrequencyFor(a, 600), 5);
  assert.equal(advancedFrequencyFor(a, 601), 10, "> last point → last frequency");
  assert.equal(advancedFrequencyFor({ durationPoints: [10], frequencies: [1] }, 5), undefined, "lengths must differ by one");
  const plan = planCapture({ durationSec: 700, advancedFrequency: a, detectFrequency: 2 });
  assert.equal(plan.mode === "times" && plan.intervalSec, 10, "advancedFrequency beats detectFrequency");
  assert.equal(times(plan).length, 70);
  assert.deepEqual(times(planCapture({ durationSec: 4, advancedFrequency: { durationPoints: [], frequencies: [2] } })), [0, 2]);
});

test("checkFrameCount spreads N frames over the clip, first and last included", () => {
  assert.deepEqual(times(planCapture({ durationSec: 60, checkFrameCount: 1 })), [0]);
  const two = times(planCapture({ durationSec: 60, checkFrameCount: 2 }));
  assert.equal(two.length, 2);
  assert.equal(two[0], 0);
  assert.ok(two[1] < 60 && two[1] >= 59.8, `last frame just before the end, got ${two[1]}`);
  const five = times(planCapture({ durationSec: 10, checkFrameCount: 5 }));
  assert.deepEqual(five, [0, 2.475, 4.95, 7.425, 9.9]);
  const seven = times(planCapture({ durationSec: 7, checkFrameCount: 7 }));
  assert.deepEqual(seven, [0, 1.15, 2.3, 3.45, 4.6, 5.75, 6.9]);
  const thirds = times(planCapture({ durationSec: 1, checkFrameCount: 4 }));
  assert.deepEqual(thirds, [0, 0.3, 0.6, 0.9], "3-decimal rounding, margin ≤ a tenth of a short clip");
  assert.equal(planCapture({ durationSec: 60, checkFrameCount: 3, advancedFrequency: { durationPoints: [10], frequencies: [1, 2] } }).reason, "checkFrameCount 3", "checkFrameCount beats advancedFrequency");
  assert.equal(times(planCapture({ durationSec: 60, checkFrameCount: 0 })).length, 12, "0 is ignored → default cadence");
});

test("unknown duration: checkFrameCount and advancedFrequency fall back to detectFrequency, sampled in one pass", () => {
  for (const o of [{ checkFrameCount: 10 }, { advancedFrequency: { durationPoints: [60], frequencies: [1, 2] } }, { detectFrequency: 7 }, {}]) {
    const plan = planCapture({ durationSec: null, ...o });
    assert.equal(plan.mode, "times");
    if (plan.mode !== "times") continue;
    assert.deepEqual(plan.times, []);
    assert.equal(plan.intervalSec, "detectFrequency" in o ? 7 : 5);
    assert.match(plan.reason, /duration unknown/);
  }
  assert.deepEqual(planCapture({ durationSec: Number.NaN, detectFrequency: 2 }).mode, "times");
});

test("screenshotType selects the mode explicitly", () => {
  const all = { durationSec: 30, detectFrequency: 10, advancedFrequency: { durationPoints: [20], frequencies: [2, 3] }, checkFrameCount: 4 };
  assert.deepEqual(times(planCapture({ ...all, screenshotType: 0 })), [0, 10, 20]);
  assert.equal(times(planCapture({ ...all, screenshotType: 1 })).length, 10);
  assert.equal(times(planCapture({ ...all, screenshotType: 2 })).length, 4);
  assert.deepEqual(planCapture({ ...all, screenshotType: 3 }), { mode: "keyframes", reason: "screenshotType 3: every keyframe" });
  const missing = planCapture({ durationSec: 30, screenshotType: 2, detectFrequency: 15 });
  assert.deepEqual(times(missing), [0, 15], "type 2 without checkFrameCount → detectFrequency");
  assert.match(missing.reason, /screenshotType 2/);
  assert.deepEqual(times(planCapture({ durationSec: 30, screenshotType: 1 })), [0, 5, 10, 15, 20, 25]);
});

test("the frame count is bounded", () => {
  const plan = planCapture({ durationSec: 10 * 3600, detectFrequency: 1 });
  const t = times(plan);
  assert.equal(t.length, MAX_CAPTURE_FRAMES);
  assert.ok(t[t.length - 1] < 10 * 3600);
  assert.ok(t.every((x, i) => i === 0 || x > t[i - 1]), "strictly ascending");
  assert.equal(times(planCapture({ durationSec: 100, checkFrameCount: 1e9 })).length, MAX_CAPTURE_FRAMES);
});
