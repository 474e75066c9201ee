// Rough edges of issue 31 item 4, pulled into pure functions: each case failed on the code before the fix.
import assert from "node:assert/strict";
import { test } from "node:test";
import { emptyClipsNote, isLivePreview, rejectCount } from "../../components/preview/player-state";

test("a closed stream's preview is never live, even when its last preview info said so", () => {
  assert.equal(isLivePreview(false, true), false);
  assert.equal(isLivePreview(true, true), true);
  assert.equal(isLivePreview(true, undefined), true);
  assert.equal(isLivePreview(true, false), false);
});

test("no clip while REJECT frames are listed: the clips are being cut, not 'no REJECT frame'", () => {
  assert.equal(emptyClipsNote(0, true), "No REJECT frame yet.");
  assert.match(emptyClipsNote(6, true), /^6 REJECT frames: their clips are being cut/);
  assert.match(emptyClipsNote(1, false), /^1 REJECT frame: /);
  const marks = [
    { eventId: 1, index: 1, level: "REJECT" as const, atMs: 0 },
    { eventId: 2, index: 2, level: "REVIEW" as const, atMs: 1 },
    { eventId: 3, index: 3, level: null, atMs: 2 },
    { eventId: 4, index: 4, level: "REJECT" as const, atMs: 3 },
  ];
  assert.equal(rejectCount(marks), 2);
});
