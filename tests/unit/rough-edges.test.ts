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

test("the header and the health strip show one set of frame counts: stored results and the polled snapshot reconciled", async () => {
  const { reconcileFrameCounts } = await import("../../components/health/format");
  // at start: one result stored and pushed, the engine's snapshot (polled) still at zero
  const zero = { captured: 0, checked: 0, notChecked: 0, waiting: 0, detecting: 0 };
  assert.deepEqual(reconcileFrameCounts({ framesChecked: 1, framesNotChecked: 0 }, zero), { captured: 1, checked: 1, notChecked: 0 });
  // the snapshot ahead: two captured frames still in detection
  assert.deepEqual(reconcileFrameCounts({ framesChecked: 1, framesNotChecked: 0 }, { captured: 4, checked: 2, notChecked: 0, waiting: 1, detecting: 1 }), { captured: 4, checked: 2, notChecked: 0 });
  assert.deepEqual(reconcileFrameCounts({ framesChecked: 3, framesNotChecked: 2 }, null), { captured: 5, checked: 3, notChecked: 2 });
});

test("the review queue offers deciding keys only to a role that may decide", async () => {
  const { triageHints, triageKeyMap } = await import("../../components/review/triage-hints");
  const labels = (can: boolean) => triageHints(can).map((h) => h.label);
  assert.deepEqual(labels(false), ["next/previous", "reveal media", "open the source"]);
  assert.deepEqual(labels(true), ["next/previous", "confirm", "clear", "escalate", "assign to me", "reveal media", "open the source"]);
  const all = { j: 1, k: 2, c: 3, x: 4, e: 5, a: 6, v: 7, Enter: 8 };
  assert.deepEqual(Object.keys(triageKeyMap(false, all)).sort(), ["Enter", "j", "k", "v"]);
  assert.deepEqual(Object.keys(triageKeyMap(true, all)).sort(), ["Enter", "a", "c", "e", "j", "k", "v", "x"]);
});

test("an ended stream says who closed it: a user, a rule, or the source", async () => {
  const { endReasonText } = await import("../../components/streams/end-reasons");
  assert.equal(endReasonText(null, "closed by ana"), "closed by ana");
  assert.equal(endReasonText(null, 'closed by rule "ads" (v2): spam'), 'closed by rule "ads" (v2): spam');
  assert.equal(endReasonText(null, "ended"), "the source ended");
  assert.equal(endReasonText(3001, "pull failed"), "stream unreachable");
  assert.equal(endReasonText(null, null), "closed / ended");
});

test("an untitled API stream is named by its accessKey and its URL, never by its hex id", async () => {
  const { sourceName, urlLabel } = await import("../../lib/source-name");
  assert.equal(sourceName({ title: null, url: "rtmp://user:pw@live.example.com:1935/live/show?token=x", origin: "api", keyName: "API key 3f2a1b" }), "API key 3f2a1b · live.example.com:1935/live/show");
  assert.equal(sourceName({ title: null, url: "rtmp://h/live/x", origin: "api", keyName: "partner", streamName: "Evening show" }), "partner · Evening show");
  assert.equal(sourceName({ title: "Lobby cam", url: "rtmp://h/x", origin: "api", keyName: "k" }), "Lobby cam");
  assert.equal(sourceName({ title: null, url: "https://cdn.example/a.m3u8", origin: "dashboard" }), "cdn.example/a.m3u8");
  assert.equal(sourceName({ title: null, url: null }), null);
  assert.equal(urlLabel(`https://x.example/${"a".repeat(100)}`)!.length, 60);
});

test("each of the three places to decide says whether it counts and names the incident queue as the team's record", async () => {
  const { decisionScope } = await import("../../components/shared/decision-scope");
  assert.match(decisionScope("item"), /carried to the incidents/);
  assert.match(decisionScope("item", "segment"), /this segment/);
  assert.match(decisionScope("source"), /decides no incident/);
  for (const p of ["item", "source", "incident"] as const) assert.match(decisionScope(p), /team's record/);
});

test("an export shows 'Preparing zip…' with the bytes so far, and saves under the server's filename", async () => {
  const { filenameOf, preparingText } = await import("../../components/shared/download-progress");
  assert.equal(preparingText(0), "Preparing zip…");
  assert.equal(preparingText(300), "Preparing zip… 1 KB");
  assert.equal(preparingText(5 * 1024 * 1024 + 1), "Preparing zip… 5.0 MB");
  assert.equal(filenameOf('attachment; filename="incident-ab12.zip"'), "incident-ab12.zip");
  assert.equal(filenameOf('attachment; filename="../../x.zip"'), ".._.._x.zip");
  assert.equal(filenameOf(null), null);
});

test("without the CJK font the sample draws a Latin-only ad line and says how to get the Chinese one", async () => {
  const { sampleAdLines, SAMPLE_AD_TEXT } = await import("../../server/demo/sample-source");
  const { PRODUCT_PACKAGES, AUDIO_PACKAGES } = await import("../../server/setup/debian-packages");
  const both = sampleAdLines({ latin: "/l.ttf", cjk: "/c.ttc" });
  assert.deepEqual(both.lines.map((l) => [l.text, l.font]), [[SAMPLE_AD_TEXT.latin, "/l.ttf"], [SAMPLE_AD_TEXT.cjk, "/c.ttc"]]);
  assert.deepEqual(both.notes, []);
  const latinOnly = sampleAdLines({ latin: "/l.ttf", cjk: null });
  assert.deepEqual(latinOnly.lines.map((l) => [l.text, l.font]), [[SAMPLE_AD_TEXT.latin, "/l.ttf"], [SAMPLE_AD_TEXT.cjkFallback, "/l.ttf"]]);
  assert.ok(latinOnly.lines.every((l) => /^[\x20-\x7e]+$/.test(l.text)), "every line renders with a Latin font");
  assert.match(latinOnly.notes[0], /fonts-noto-cjk/);
  assert.deepEqual(sampleAdLines({ latin: null, cjk: null }).lines, []);
  // npm start installs the font as it does the other Debian packages; a missing font never marks audio types unsupported
  assert.equal(PRODUCT_PACKAGES["fonts-noto-cjk"].file, "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc");
  assert.ok(!(AUDIO_PACKAGES as readonly string[]).includes("fonts-noto-cjk"));
});
