// Rules (#27): the matcher, the sliding window and the rule body's validation (fuzzed bodies get clear errors).
import assert from "node:assert/strict";
import { test } from "node:test";
import { globMatch, RuleInput, type RuleHit } from "../../lib/rules";
import { hitMatches, sourceMatches, windowFires, windowKey } from "../../server/rules/match";
import { toBody, toForm, EMPTY_FORM, summary } from "../../components/rules/rule-form";

const hit = (o: Partial<RuleHit> = {}): RuleHit => ({ itemId: "frame:x_v1", t: 100, label: "ad", level: "REJECT", score: 0.9, lists: [], mediaUrl: null, ...o });
const when = (o: Record<string, unknown> = {}) => RuleInput.parse({ name: "r", when: o, then: [{ action: "alert" }] }).when;

test("glob: * and ?, whole string, case-insensitive, linear on hostile patterns", () => {
  assert.ok(globMatch("Lobby *", "lobby 12"));
  assert.ok(globMatch("u-??", "U-42"));
  assert.ok(!globMatch("u-??", "u-421"));
  assert.ok(globMatch("*", ""));
  assert.ok(!globMatch("a*b", "a-c"));
  const started = process.hrtime.bigint();
  assert.ok(!globMatch("*a*a*a*a*a*a*a*a*b", "a".repeat(5000)));
  assert.ok(process.hrtime.bigint() - started < 5_000_000_000n);
});

test("hits: labels, levels, lists and minimum score all have to hold", () => {
  assert.ok(hitMatches(when({ labels: ["AD"], levels: ["REJECT"] }), hit()));
  assert.ok(!hitMatches(when({ levels: ["REVIEW"] }), hit()));
  assert.ok(!hitMatches(when({ minScore: 0.95 }), hit()));
  assert.ok(!hitMatches(when({ lists: ["scam-words"] }), hit()));
  assert.ok(hitMatches(when({ lists: ["scam-words"] }), hit({ lists: ["Scam-Words"] })));
  assert.ok(!hitMatches(when({ labels: ["porn"] }), hit()));
});

test("sources: kinds, appId/eventId lists and title/tokenId patterns", () => {
  const s = { kind: "stream" as const, requestId: "r", title: "Lobby 3", appId: "shop", eventId: "LIVE", tokenId: "u-17" };
  assert.ok(sourceMatches(when({ kinds: ["stream"], appIds: ["SHOP"], titlePattern: "lobby*", tokenIdPattern: "u-*" }), s));
  assert.ok(!sourceMatches(when({ kinds: ["file"] }), s));
  assert.ok(!sourceMatches(when({ eventIds: ["OTHER"] }), s));
  assert.ok(!sourceMatches(when({ tokenIdPattern: "x*" }), s));
  assert.ok(!sourceMatches(when({ appIds: ["shop"] }), { ...s, appId: null }));
});

test("window: fires when count hits lie within withinSec, at most once per window", () => {
  // 3 within 30 s: hits at 0, 10, 20 fire at 20; 25, 28 are in the same window (key 0); 61, 70, 80 fire again in window 2
  assert.deepEqual(windowFires([0, 10, 20, 25, 28, 61, 70, 80], 3, 30), [20, 80]);
  assert.deepEqual(windowFires([0, 40, 80], 2, 30), []);
  assert.deepEqual(windowFires([5], 1, 60), [5]);
  assert.equal(windowKey(59.9, 30), 1);
});

test("rule bodies: defaults, clear errors for bad ones (fuzzed)", () => {
  const ok = RuleInput.parse({ name: "x", when: {}, then: [{ action: "close" }] });
  assert.equal(ok.mode, "shadow", "a new rule starts in shadow mode");
  assert.deepEqual([ok.when.count, ok.when.withinSec, ok.stopAfterMatch], [1, 60, false]);
  const bad: unknown[] = [
    null, 42, "rule", [], {}, { name: "" , when: {}, then: [{ action: "close" }] },
    { name: "x", when: {}, then: [] }, { name: "x", when: {}, then: [{ action: "explode" }] },
    { name: "x", mode: "on", when: {}, then: [{ action: "close" }] },
    { name: "x", when: { count: 0 }, then: [{ action: "close" }] }, { name: "x", when: { withinSec: -1 }, then: [{ action: "close" }] },
    { name: "x", when: { minScore: 2 }, then: [{ action: "close" }] }, { name: "x", when: { levels: ["PASS"] }, then: [{ action: "close" }] },
    { name: "x", when: { bogus: 1 }, then: [{ action: "close" }] }, { name: "x", when: {}, then: [{ action: "webhook", url: "file:///etc/passwd" }] },
    { name: "x", when: {}, then: [{ action: "webhook", url: "https://x.example/h", secret: "short" }] },
    { name: "x", when: {}, then: [{ action: "close" }, { action: "close" }] }, { name: "x".repeat(81), when: {}, then: [{ action: "close" }] },
    { name: "x", when: { titlePattern: "" }, then: [{ action: "close" }] }, { name: "x", when: {}, then: [{ action: "queue" }] },
  ];
  for (const b of bad) {
    const r = RuleInput.safeParse(b);
    assert.ok(!r.success, `refused: ${JSON.stringify(b)}`);
    assert.ok(r.error.issues.every((i) => i.message.length > 0));
  }
  // random junk never throws
  for (let i = 0; i < 300; i++) {
    const junk = JSON.parse(JSON.stringify({ name: Math.random() > 0.5 ? "n" : i, mode: ["off", "live", 3][i % 3], when: { count: i - 5, labels: i % 2 ? ["ad"] : "ad" }, then: [{ action: ["close", "webhook", 7][i % 3], url: i % 4 ? "http://a.example" : 5 }] }));
    assert.doesNotThrow(() => RuleInput.safeParse(junk));
  }
});

test("the editor's form round-trips a rule and says what it does", () => {
  const body = toBody({ ...EMPTY_FORM, name: "ads", webhook: "https://chat.example/hook" });
  assert.ok(RuleInput.safeParse(body).success);
  assert.deepEqual(toBody(toForm(RuleInput.parse(body))), body);
  assert.equal(summary(RuleInput.parse(body)), "3 REJECT ad hits within 30 s → close, alert, webhook");
});
