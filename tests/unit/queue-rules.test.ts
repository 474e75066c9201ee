// Review queue rules (issue #26.3): rule matching field by field, first match wins with the default last, glob
// patterns (linear, no regex from users) and the zod validation of queue bodies.
import assert from "node:assert/strict";
import { test } from "node:test";
import { globMatch, NextInput, QueueInput, QueuePatch, QueueRule } from "../../lib/queues";
import { pickQueue, routingOrder, ruleMatches, type RouteFacts } from "../../server/queues/routing";
import type { QueueRow } from "../../server/queues/schema";

const facts: RouteFacts = { label: "ad", level: "REJECT", kind: "stream", title: "Big Casino Night", appId: "vip-app", eventId: "VIDEOSTREAM", tokenId: "watch-42-anna", lists: ["Scam words"] };
const row = (id: string, position: number, rule: QueueRule, isDefault = false): QueueRow => ({ id, name: id, position, rule, order: "oldest", roles: [], users: [], isDefault, createdBy: null, createdAt: new Date(position * 1000), updatedAt: new Date() });

test("every rule field: all given must match, any value of a list field", () => {
  assert.equal(ruleMatches({}, facts), true, "an empty rule matches everything");
  assert.equal(ruleMatches({ labels: ["porn", "ad"] }, facts), true);
  assert.equal(ruleMatches({ labels: ["porn"] }, facts), false);
  assert.equal(ruleMatches({ labels: ["ad"], levels: ["REVIEW"] }, facts), false, "AND across fields");
  assert.equal(ruleMatches({ levels: ["REJECT"], kinds: ["stream"] }, facts), true);
  assert.equal(ruleMatches({ kinds: ["file"] }, facts), false);
  assert.equal(ruleMatches({ appIds: ["VIP-APP"] }, facts), true, "ids compare without case");
  assert.equal(ruleMatches({ eventIds: ["video"] }, facts), false);
  assert.equal(ruleMatches({ titlePattern: "casino" }, facts), true, "no wildcard: substring");
  assert.equal(ruleMatches({ titlePattern: "casino*" }, facts), false, "a glob covers the whole title");
  assert.equal(ruleMatches({ tokenIdPattern: "watch-??-*" }, facts), true);
  assert.equal(ruleMatches({ tokenIdPattern: "watch-?-*" }, facts), false);
  assert.equal(ruleMatches({ lists: ["scam WORDS"] }, facts), true);
  assert.equal(ruleMatches({ lists: ["other"] }, facts), false);
  assert.equal(ruleMatches({ titlePattern: "*" }, { ...facts, title: null }), false, "a pattern never matches a missing value");
  assert.equal(ruleMatches({ appIds: [] }, { ...facts, appId: null }), true, "an empty list is no condition");
});

test("first matching queue by position wins; the default queue takes the rest whatever its stored rule", () => {
  const queues = routingOrder([row("default", 2147483647, { labels: ["nothing"] }, true), row("b", 1, { labels: ["ad"] }), row("a", 0, { levels: ["REJECT"] }), row("c", 2, { labels: ["porn"] })]);
  assert.deepEqual(queues.map((q) => q.id), ["a", "b", "c", "default"]);
  assert.equal(pickQueue(queues, facts), "a");
  assert.equal(pickQueue(queues, { ...facts, level: "REVIEW" }), "b");
  assert.equal(pickQueue(queues, { ...facts, level: "REVIEW", label: "violence" }), "default");
});

test("globs: * and ?, case-insensitive, linear on hostile input", () => {
  assert.equal(globMatch("a*b?d", "AxxxbCd"), true);
  assert.equal(globMatch("a*b?d", "abd"), false);
  assert.equal(globMatch("*", ""), true);
  assert.equal(globMatch("**a**", "bab"), true);
  // the classic catastrophic-backtracking shape (a regex would run for ages) is answered by the linear matcher
  assert.equal(globMatch(`${"*a".repeat(16)}b`, "a".repeat(5000)), false);
});

test("queue bodies: clear errors for what is wrong, defaults for what is left out", () => {
  assert.deepEqual(QueueInput.parse({ name: " Ads ", rule: { labels: ["ad"] }, order: "worst" }), { name: "Ads", rule: { labels: ["ad"] }, order: "worst", roles: [], users: [] });
  assert.deepEqual(QueueInput.parse({ name: "All" }), { name: "All", rule: {}, order: "oldest", roles: [], users: [] });
  const bad = QueueInput.safeParse({ name: "", rule: { labels: ["Bad Slug"], regex: "(a+)+$", titlePattern: "x".repeat(201) }, order: "newest", roles: ["admin"] });
  assert.equal(bad.success, false);
  const paths = bad.error!.issues.map((i) => i.path.join("."));
  for (const p of ["name", "rule.labels.0", "rule", "rule.titlePattern", "order", "roles.0"]) assert.ok(paths.includes(p), `${p} in ${paths.join(", ")}`);
  assert.equal(QueueRule.safeParse({ tokenIdPattern: "*a".repeat(17) }).success, false, "at most 16 *");
  assert.equal(QueuePatch.safeParse({ position: -1 }).success, false);
  assert.equal(QueuePatch.safeParse({ id: "x" }).success, false, "unknown fields are refused");
  assert.equal(NextInput.safeParse({ skip: ["not-an-id"] }).success, false);
  assert.equal(NextInput.safeParse({}).success, true);
});
