import assert from "node:assert/strict";
import { test } from "node:test";
import { ExportSlots } from "../../server/incidents/export-slots";

test("export slots: per account and in all; a release frees exactly one slot, once", () => {
  const slots = new ExportSlots({ perUser: 2, max: 3 });
  const a1 = slots.take("a");
  const a2 = slots.take("a");
  assert.ok("release" in a1 && "release" in a2);
  const a3 = slots.take("a");
  assert.ok("refused" in a3 && /you already have 2 evidence exports running/.test(a3.refused));
  const b1 = slots.take("b");
  assert.ok("release" in b1);
  const c1 = slots.take("c");
  assert.ok("refused" in c1 && /3 evidence exports are running \(at most 3 at once\)/.test(c1.refused), "the server-wide cap");
  a1.release();
  a1.release(); // twice: still one slot
  assert.equal(slots.runningFor("a"), 1);
  assert.ok("release" in slots.take("c"));
  assert.ok("refused" in slots.take("d"));
  assert.ok("release" in new ExportSlots({ perUser: 0, max: 0 }).take("x"), "0 = no limit");
});
