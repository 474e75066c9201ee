// The soak's verdicts (tests/soak/sample.ts, issue #30 item 4): RSS flat after warm-up, no descriptor growth, no
// unchecked frame, no callback lost — over samples made up here so each rule is seen to pass and to fail.
import assert from "node:assert/strict";
import { test } from "node:test";
import { verdicts, type Sample } from "../soak/sample";

const LIMITS = { rssGrowth: 0.1, fdSlack: 5 };
/** A sample every 5 minutes of an hour; `rss(min)` and `fds(min)` give the one process's figures. */
const hour = (rss: (m: number) => number, fds: (m: number) => number = () => 100): Sample[] =>
  Array.from({ length: 13 }, (_, i) => i * 5).map((minute) => ({
    minute,
    procs: { "worker-1": { rssMb: rss(minute), fds: fds(minute), childrenRssMb: 50, children: 2 } },
    framesCaptured: minute * 100,
    framesNotChecked: 0,
    callbacksPending: 0,
    callbacksExhausted: 0,
    callbacksReceived: minute * 100,
    dataDirMb: minute,
    tablesMb: {},
  }));
const ok = { framesNotChecked: 0, callbacksLost: 0 };

test("a warm-up climb is not growth; flat after it passes; the window is the last 40 minutes of an hour", () => {
  const v = verdicts(hour((m) => (m < 20 ? 300 + m * 20 : 700)), LIMITS, ok);
  assert.deepEqual(v.windowMinutes, [20, 60]);
  assert.equal(v.rssFlat.pass, true, JSON.stringify(v.perProcess));
  assert.equal(v.perProcess["worker-1"].rssGrowth, 0);
  assert.equal(v.noFdGrowth.pass, true);
  assert.equal(v.noUncheckedFrames.pass && v.noCallbackLost.pass, true);
});

test("a steady leak after warm-up fails the RSS verdict; a descriptor leak fails the fd verdict", () => {
  const leak = verdicts(hour((m) => 500 + m * 3), LIMITS, ok); // 560 → 680 MB (+ children) over the window
  assert.equal(leak.rssFlat.pass, false);
  assert.ok(leak.perProcess["worker-1"].rssGrowth! > 0.1);
  const fdLeak = verdicts(hour(() => 500, (m) => 100 + m), LIMITS, ok);
  assert.equal(fdLeak.noFdGrowth.pass, false);
  assert.equal(fdLeak.perProcess["worker-1"].fdGrowth, 40);
});

test("an unchecked frame or a lost callback fails; too few samples never pass the RSS verdict", () => {
  const v = verdicts(hour(() => 500), LIMITS, { framesNotChecked: 3, callbacksLost: 1 });
  assert.equal(v.noUncheckedFrames.pass, false);
  assert.equal(v.noCallbackLost.pass, false);
  const short = verdicts(hour(() => 500).slice(0, 3), LIMITS, ok);
  assert.equal(short.rssFlat.pass, false, "no verdict from fewer than 4 samples after warm-up");
});
