// Per-user alert and wellness settings (issue 26.2/26.4): built-in defaults per role, the team default, the user's own.
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_ALERTS, UserSettingsPatchSchema, breakDue, effectiveSettings, mergePatch, parseStoredPatch } from "../../lib/user-settings";

test("reviewers get blurred, muted media by default; supervisors and moderators see media plain, audio muted", () => {
  assert.deepEqual(effectiveSettings("reviewer", null, null).wellness, { blur: true, muteAudio: true, breakAfter: 50 });
  assert.equal(effectiveSettings("supervisor", null, null).wellness.blur, false);
  assert.equal(effectiveSettings("moderator", null, null).wellness.blur, false);
  assert.deepEqual(effectiveSettings("reviewer", null, null).alerts, DEFAULT_ALERTS);
});

test("the team default applies to reviewers; the user's own choice wins over it", () => {
  const team = { wellness: { blur: false, breakAfter: 20 } };
  assert.deepEqual(effectiveSettings("reviewer", team, null).wellness, { blur: false, muteAudio: true, breakAfter: 20 });
  assert.deepEqual(effectiveSettings("reviewer", team, { wellness: { blur: true } }).wellness, { blur: true, muteAudio: true, breakAfter: 20 });
  assert.equal(effectiveSettings("supervisor", team, null).wellness.breakAfter, 50, "a supervisor's own view is not the team's");
});

test("patches merge field by field; unknown or malformed fields are refused at the edge and dropped when read back", () => {
  assert.deepEqual(mergePatch({ alerts: { sound: true } }, { alerts: { levels: ["REVIEW"] }, wellness: { blur: false } }), { alerts: { sound: true, levels: ["REVIEW"] }, wellness: { blur: false } });
  assert.equal(UserSettingsPatchSchema.safeParse({ alerts: { sound: "yes" } }).success, false);
  assert.equal(UserSettingsPatchSchema.safeParse({ wellness: { breakAfter: -1 } }).success, false);
  assert.equal(UserSettingsPatchSchema.safeParse({ extra: 1 }).success, false);
  assert.equal(UserSettingsPatchSchema.safeParse({ alerts: { categories: ["Not A Slug"] } }).success, false);
  assert.deepEqual(parseStoredPatch({ alerts: { sound: 3 } }), {});
});

test("the break reminder is due at each multiple of breakAfter, once acknowledged not again until the next", () => {
  assert.equal(breakDue(49, 50, 0), false);
  assert.equal(breakDue(50, 50, 0), true);
  assert.equal(breakDue(60, 50, 50), false);
  assert.equal(breakDue(100, 50, 55), true);
  assert.equal(breakDue(500, 0, 0), false, "0 turns it off");
});
