// The rule carrying a frame's or segment's own decision to its incident (server/incidents/item-review.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { itemDecisionEffect } from "../../server/incidents/item-review";

test("confirming or escalating any hit decides the incident", () => {
  assert.deepEqual(itemDecisionEffect("confirmed", 6, 0), { decide: true, why: null });
  assert.deepEqual(itemDecisionEffect("escalated", 6, 5), { decide: true, why: null });
});

test("clearing decides only once every hit is cleared, and otherwise says why", () => {
  assert.deepEqual(itemDecisionEffect("cleared", 1, 1), { decide: true, why: null });
  assert.deepEqual(itemDecisionEffect("cleared", 6, 6), { decide: true, why: null });
  assert.deepEqual(itemDecisionEffect("cleared", 6, 1), { decide: false, why: "1 of 6 hits cleared; the others are not reviewed" });
});
