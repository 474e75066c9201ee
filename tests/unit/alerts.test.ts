// Live alerts: what an alert says and where it leads (the folding rules: tests/unit/alert-fold.test.ts).
import assert from "node:assert/strict";
import { test } from "node:test";
import { alertSummary, alertTitle, timelineHref } from "../../lib/alerts";
import type { Incident } from "../../lib/incidents";

const T0 = "2026-01-01T10:00:00.000Z";

function incident(over: Partial<Incident> & { id: string }): Incident {
  return {
    source: { kind: "stream", requestId: "r1", ref: "r1", title: "Lobby", url: "rtmp://x/live/a", href: "/streams/r1" },
    media: "frame",
    label: "ad",
    labelName: "Advertising",
    labels: ["Advertising: QR code"],
    riskLevel: "REJECT",
    timeBase: "epoch",
    start: 1_767_261_600,
    end: 1_767_261_600,
    hits: 1,
    peak: { itemId: "f1", t: 1_767_261_600.4, endT: 1_767_261_600.4, score: 1, riskLevel: "REJECT", labels: ["Advertising: QR code"], mediaUrl: "/media/a.jpg?exp=1&sig=x", evidence: { qr: ["https://spam.example"], words: [], faces: [] } },
    status: "open",
    assignee: null,
    lastDecision: null,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  };
}
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
