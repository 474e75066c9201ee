// One live alert per stream (issue 26.2): a stream's incidents fold into one entry that updates in place; it is
// raised again only when its worst level rises or a new incident opens after a dismissal and a quiet period.
import assert from "node:assert/strict";
import { test } from "node:test";
import { EMPTY_FOLD, QUIET_MS, dismissStream, foldIncident, withBaseline, type FoldBook, type FoldFilter } from "../../lib/alert-fold";
import type { Incident } from "../../lib/incidents";
import { streamIncident as incident } from "../support/incident-fixtures";

const T0 = Date.parse("2026-01-01T10:00:00.000Z");
const REJECT_ONLY: FoldFilter = { levels: ["REJECT"], categories: [] };
const BOTH: FoldFilter = { levels: ["REJECT", "REVIEW"], categories: [] };

const grown = (i: Incident, hits: number, at: number): Incident => ({ ...i, hits, updatedAt: new Date(at).toISOString() });

function feed(book: FoldBook, events: Array<[Incident, number]>, filter = REJECT_ONLY) {
  const effects: string[] = [];
  for (const [e, now] of events) {
    const step = foldIncident(book, e, now, filter);
    book = step.book;
    effects.push(step.effect);
  }
  return { book, effects };
}

/** The 40 s sample looping for an hour: each loop opens a new incident (hits further apart than the gap) that grows twice. */
function hourOfLoops(requestId = "r1"): Array<[Incident, number]> {
  const events: Array<[Incident, number]> = [];
  for (let loop = 0; loop < 90; loop++) {
    const at = T0 + loop * 40_000;
    const i = incident({ id: `${requestId}-loop${loop}`, at, source: { kind: "stream", requestId, ref: requestId, title: "Sample", url: null, href: `/streams/${requestId}` } });
    events.push([i, at], [grown(i, 2, at + 1000), at + 1000], [grown(i, 3, at + 2000), at + 2000]);
  }
  return events;
}

test("a stream whose sample loops for an hour gives one alert entry, raised once, with every incident and hit counted", () => {
  const { book, effects } = feed(EMPTY_FOLD, hourOfLoops());
  assert.equal(effects.length, 270);
  assert.equal(effects.filter((e) => e === "raised").length, 1, "one raise (one sound) for the hour");
  assert.equal(effects[0], "raised");
  assert.equal(book.entries.length, 1);
  const e = book.entries[0];
  assert.equal(e.openCount, 90);
  assert.equal(e.hits, 270);
  assert.equal(e.worst, "REJECT");
  assert.equal(e.latest.id, "r1-loop89", "the latest incident's peak is shown");
  assert.equal(e.updates, 269);
  assert.equal(e.raises, 1);
});

test("dismissed while the loop goes on, it stays dismissed (listed by the bell); a new incident after a quiet period raises it again", () => {
  const loops = hourOfLoops();
  let { book } = feed(EMPTY_FOLD, loops.slice(0, 3));
  book = dismissStream(book, "r1", T0 + 3000);
  const rest = feed(book, loops.slice(3));
  assert.equal(rest.effects.filter((x) => x === "raised").length, 0, "a busy stream never comes back by itself");
  assert.equal(rest.book.entries[0].dismissed, true);
  assert.equal(rest.book.entries[0].openCount, 90, "the dismissed entry still counts");
  const lastAt = T0 + 89 * 40_000 + 2000;
  const late = incident({ id: "r1-late", at: lastAt + QUIET_MS });
  const after = foldIncident(rest.book, late, lastAt + QUIET_MS, REJECT_ONLY);
  assert.equal(after.effect, "raised");
  assert.equal(after.book.entries[0].dismissed, false);
  assert.equal(after.book.entries[0].raises, 2);
});

test("the worst level rising raises the entry again; falling or equal does not", () => {
  const review = incident({ id: "a", at: T0, riskLevel: "REVIEW" });
  const reject = incident({ id: "b", at: T0 + 5000 });
  const review2 = incident({ id: "c", at: T0 + 9000, riskLevel: "REVIEW" });
  const { book, effects } = feed(EMPTY_FOLD, [[review, T0], [reject, T0 + 5000], [review2, T0 + 9000]], BOTH);
  assert.deepEqual(effects, ["raised", "raised", "updated"]);
  assert.equal(book.entries[0].worst, "REJECT");
  assert.equal(book.entries[0].openCount, 3);
});

test("levels and categories the user left out raise nothing; two streams are two entries, newest activity first", () => {
  const review = incident({ id: "a", at: T0, riskLevel: "REVIEW" });
  assert.equal(foldIncident(EMPTY_FOLD, review, T0, REJECT_ONLY).effect, "none");
  const porn = incident({ id: "p", at: T0, label: "porn" });
  assert.equal(foldIncident(EMPTY_FOLD, porn, T0, { levels: ["REJECT"], categories: ["ad"] }).effect, "none");
  const file = incident({ id: "f", at: T0, source: { kind: "file", requestId: "fr", ref: "bt", title: null, url: null, href: "/files/bt" } });
  assert.equal(foldIncident(EMPTY_FOLD, file, T0, REJECT_ONLY).effect, "none");
  const other = incident({ id: "o", at: T0 + 1, source: { kind: "stream", requestId: "r2", ref: "r2", title: "Other", url: null, href: "/streams/r2" } });
  const { book, effects } = feed(EMPTY_FOLD, [[incident({ id: "x", at: T0 }), T0], [other, T0 + 1]]);
  assert.deepEqual(effects, ["raised", "raised"]);
  assert.deepEqual(book.entries.map((e) => e.key), ["r2", "r1"]);
});

test("a decision updates the entry in place: open count falls, the decided incident's status shows", () => {
  const a = incident({ id: "a", at: T0 });
  const decided = { ...a, status: "confirmed" as const, updatedAt: new Date(T0 + 4000).toISOString() };
  const { book, effects } = feed(EMPTY_FOLD, [[a, T0], [decided, T0 + 4000]]);
  assert.deepEqual(effects, ["raised", "updated"]);
  assert.equal(book.entries[0].openCount, 0);
  assert.equal(book.entries[0].latest.status, "confirmed");
});

test("what the baseline already held raises nothing until it grows; a stream alerted before a reload is listed without a second sound", () => {
  const a = incident({ id: "a", at: T0 });
  const later = { ...a, assignee: "rev", updatedAt: new Date(T0 + 1000).toISOString() };
  const base = withBaseline(EMPTY_FOLD, [a]);
  assert.equal(foldIncident(base, later, T0 + 1000, REJECT_ONLY).effect, "none");
  assert.equal(foldIncident(base, grown(a, 2, T0 + 2000), T0 + 2000, REJECT_ONLY).effect, "raised");
  const reloaded = { ...base, remembered: ["r1"] };
  const step = foldIncident(reloaded, grown(a, 2, T0 + 2000), T0 + 2000, REJECT_ONLY);
  assert.equal(step.effect, "updated");
  assert.equal(step.book.entries.length, 1);
  assert.equal(step.book.entries[0].dismissed, false);
  // dismissed before the reload: listed again, still dismissed
  const gone = foldIncident({ ...reloaded, dismissedAt: { r1: T0 + 1500 } }, grown(a, 2, T0 + 2000), T0 + 2000, REJECT_ONLY);
  assert.equal(gone.book.entries[0].dismissed, true);
  assert.equal(gone.book.entries[0].dismissedAt, T0 + 1500);
});

test("an entry created after a join counts the stream's open incidents the baseline held, of the levels asked for", () => {
  const old1 = incident({ id: "o1", at: T0 });
  const old2 = { ...incident({ id: "o2", at: T0 + 20_000 }), hits: 4 };
  const review = incident({ id: "o3", at: T0 + 30_000, riskLevel: "REVIEW" });
  const elsewhere = incident({ id: "o4", at: T0, source: { kind: "stream", requestId: "r2", ref: "r2", title: null, url: null, href: "/streams/r2" } });
  const base = withBaseline(EMPTY_FOLD, [old1, old2, review, elsewhere]);
  const step = foldIncident(base, incident({ id: "new", at: T0 + 60_000 }), T0 + 60_000, REJECT_ONLY);
  assert.equal(step.effect, "raised");
  assert.equal(step.book.entries[0].openCount, 3);
  assert.equal(step.book.entries[0].hits, 6);
});
