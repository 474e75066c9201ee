// Live alerts: what an alert says and where it leads (the folding rules: tests/unit/alert-fold.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { alertSummary, alertTitle, timelineHref } from "../../lib/alerts";
import type { Incident } from "../../lib/incidents";
import { streamIncident } from "../support/incident-fixtures";

// the peak 0.4 s into the second: the timeline link is to the whole second
const AT = Date.parse("2026-01-01T10:00:00.400Z");
const incident = (over: Partial<Incident> & { id: string }) => streamIncident({ at: AT, ...over });

test("Open goes to the stream's timeline at the peak", () => {
  assert.equal(timelineHref(incident({ id: "a" })), "/streams/r1?at=1767261600");
});

test("the title names level, category and stream; the summary the evidence that matched", () => {
  assert.equal(alertTitle(incident({ id: "a" })), "REJECT · Advertising on Lobby");
  assert.equal(alertSummary(incident({ id: "a" })), "QR: https://spam.example");
  const words = incident({ id: "b" });
  words.peak = { ...words.peak, evidence: { qr: [], words: [{ list: "ads", word: "wechat", entry: "wechat" }], faces: [] } };
  assert.equal(alertSummary(words), "words: wechat");
});
