// Live alerts (issue #11.5): which incident events raise an alert, and one alert per incident.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_ALERT_SETTINGS, EMPTY_BOOK, MAX_TOASTS, dismiss, isAlertable, onIncident, parseAlertSettings, parseRaised, timelineHref, withBaseline, type AlertBook } from "../../lib/alerts";
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
const extended = (i: Incident, hits: number): Incident => ({ ...i, hits, end: i.end + hits, updatedAt: `2026-01-01T10:00:0${hits}.000Z` });

function run(book: AlertBook, events: Incident[]) {
  const effects: string[] = [];
  for (const e of events) {
    const step = onIncident(book, e, 0);
    book = step.book;
    effects.push(step.effect);
  }
  return { book, effects };
}

test("only open REJECT incidents of streams are alertable", () => {
  assert.equal(isAlertable(incident({ id: "a" })), true);
  assert.equal(isAlertable(incident({ id: "a", riskLevel: "REVIEW" })), false);
  assert.equal(isAlertable(incident({ id: "a", status: "cleared" })), false);
  assert.equal(isAlertable(incident({ id: "a", source: { kind: "file", requestId: "f", ref: "b", title: null, url: null, href: "/files/b" } })), false);
});

test("an incident raises one alert; its extensions update that alert, never a second one", () => {
  const a = incident({ id: "a" });
  const { book, effects } = run(EMPTY_BOOK, [a, extended(a, 2), extended(a, 3)]);
  assert.deepEqual(effects, ["raised", "updated", "updated"]);
  assert.equal(book.alerts.length, 1);
  assert.equal(book.alerts[0].incident.hits, 3);
  assert.equal(book.alerts[0].updates, 2);
});

test("a dismissed alert stays dismissed while its incident grows", () => {
  const a = incident({ id: "a" });
  let { book } = run(EMPTY_BOOK, [a]);
  book = dismiss(book, "a");
  const after = run(book, [extended(a, 2), { ...extended(a, 3), assignee: "kim" }]);
  assert.deepEqual(after.effects, ["none", "none"]);
  assert.equal(after.book.alerts.length, 0);
});

test("a decision updates the alert in place (shown decided), without raising", () => {
  const a = incident({ id: "a" });
  const { book, effects } = run(EMPTY_BOOK, [a, { ...a, status: "confirmed", updatedAt: "2026-01-01T10:01:00.000Z", lastDecision: { decision: "confirmed", note: null, username: "sup", at: T0 } }]);
  assert.deepEqual(effects, ["raised", "updated"]);
  assert.equal(book.alerts[0].incident.status, "confirmed");
  assert.equal(book.alerts[0].updates, 0);
});

test("incidents open before the page joined alert only when they grow, not when assigned", () => {
  const old = incident({ id: "old", hits: 4, createdAt: "2026-01-01T09:00:00.000Z", updatedAt: "2026-01-01T09:50:00.000Z" });
  const book = withBaseline(EMPTY_BOOK, [old]);
  assert.deepEqual(run(book, [{ ...old, assignee: "kim", updatedAt: "2026-01-01T10:00:00.000Z" }]).effects, ["none"]);
  assert.deepEqual(run(book, [{ ...old, hits: 5, updatedAt: "2026-01-01T10:00:00.000Z" }]).effects, ["raised"]);
  // a creation the baseline fetched meanwhile already holds is still news
  const fresh = incident({ id: "fresh" });
  assert.deepEqual(run(withBaseline(EMPTY_BOOK, [fresh]), [fresh]).effects, ["raised"]);
});

test("a REVIEW incident that turns REJECT as it grows raises then", () => {
  const r = incident({ id: "r", riskLevel: "REVIEW" });
  const { effects } = run(EMPTY_BOOK, [r, { ...extended(r, 2), riskLevel: "REJECT" }]);
  assert.deepEqual(effects, ["none", "raised"]);
});

test("ids alerted on an earlier page of the tab are not raised again", () => {
  const a = incident({ id: "a" });
  const book: AlertBook = { ...EMPTY_BOOK, raised: parseRaised(JSON.stringify(["a"])) };
  assert.deepEqual(run(book, [extended(a, 2)]).effects, ["none"]);
  assert.deepEqual(parseRaised("{not json"), []);
  assert.deepEqual(parseRaised(JSON.stringify([1, "b"])), ["b"]);
});

test("the stack keeps the newest alerts", () => {
  const events = Array.from({ length: MAX_TOASTS + 2 }, (_, n) => incident({ id: `i${n}` }));
  const { book } = run(EMPTY_BOOK, events);
  assert.equal(book.alerts.length, MAX_TOASTS);
  assert.equal(book.alerts[0].id, `i${MAX_TOASTS + 1}`);
  assert.equal(book.raised.length, MAX_TOASTS + 2);
});

test("settings from storage fall back to the defaults field by field", () => {
  assert.deepEqual(parseAlertSettings(null), DEFAULT_ALERT_SETTINGS);
  assert.deepEqual(parseAlertSettings("nonsense"), DEFAULT_ALERT_SETTINGS);
  assert.deepEqual(parseAlertSettings(JSON.stringify({ sound: true, desktop: "yes" })), { toast: true, sound: true, desktop: false });
});

test("Open goes to the stream's timeline at the peak", () => {
  assert.equal(timelineHref(incident({ id: "a" })), "/streams/r1?at=1767261600");
});
