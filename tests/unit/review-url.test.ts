// The review queue's state in its query string (components/review/review-url.ts): read back exactly, junk dropped.
import assert from "node:assert/strict";
import { test } from "node:test";
import { reviewStateFromParams, reviewStateToSearch, sourceLink, type Filters } from "../../components/review/review-url";
import type { Incident } from "../../lib/incidents";

const read = (s: string) => reviewStateFromParams(new URLSearchParams(s));

test("defaults: the bare page shows open incidents newest first; a link to one incident shows every state", () => {
  assert.deepEqual(read(""), { filters: { query: { status: "open", sort: "newest" }, sinceSec: 0 }, id: null });
  assert.deepEqual(read("id=0123456789abcdef").filters.query.status, "all");
  assert.equal(read("id=0123456789abcdef").id, "0123456789abcdef");
});

test("every filter, the sort, since and the current incident survive a round trip", () => {
  const filters: Filters = { query: { status: "cleared", riskLevel: "REJECT", label: "ad", kind: "stream", assignee: "me", requestId: "file-7", sort: "worst" }, sinceSec: 86_400 };
  const search = reviewStateToSearch(filters, "00000000000000aa");
  assert.equal(search, "?status=cleared&riskLevel=REJECT&label=ad&kind=stream&assignee=me&requestId=file-7&sort=worst&since=86400&id=00000000000000aa");
  assert.deepEqual(read(search.slice(1)), { filters, id: "00000000000000aa" });
  // an explicit status wins over the link-to-one default, and is written whenever it differs from it
  assert.equal(read("status=open&id=00000000000000aa").filters.query.status, "open");
  const open: Filters = { query: { status: "open", sort: "newest" }, sinceSec: 0 };
  assert.equal(reviewStateToSearch(open, null), "");
  assert.equal(reviewStateToSearch(open, "00000000000000aa"), "?status=open&id=00000000000000aa");
  assert.deepEqual(read("status=open&id=00000000000000aa"), { filters: open, id: "00000000000000aa" });
  assert.equal(reviewStateToSearch({ query: { status: "all", sort: "newest" }, sinceSec: 0 }, "00000000000000aa"), "?id=00000000000000aa");
  assert.equal(reviewStateToSearch({ query: { status: "all", sort: "newest" }, sinceSec: 0 }, null), "?status=all");
});

test("malformed values are dropped, not trusted", () => {
  const s = read("status=bogus&riskLevel=PASS&label=Bad Label&kind=x&since=12345&sort=oldest&id=nothex&requestId=a/b");
  assert.deepEqual(s, { filters: { query: { status: "open", sort: "newest" }, sinceSec: 0 }, id: null });
});

test("Enter opens a stream at the incident's evidence frame (?at=), a file at its page", () => {
  const base = { timeBase: "epoch" as const, peak: { t: 1_700_000_006.5 } as Incident["peak"] };
  assert.equal(sourceLink({ ...base, source: { kind: "stream", href: "/streams/s1" } as Incident["source"] }), "/streams/s1?at=1700000006.5");
  assert.equal(sourceLink({ ...base, timeBase: "offset", source: { kind: "file", href: "/files/f1" } as Incident["source"] }), "/files/f1");
});
