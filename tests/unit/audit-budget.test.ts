import assert from "node:assert/strict";
import { test } from "node:test";
import { AuditBudget } from "../../server/auth/audit-budget";

test("audit budget: per address, then overall; the entry at a limit is the last; a new window starts afresh", () => {
  let now = 0;
  const b = new AuditBudget({ windowMs: 1000, perAddress: 3, overall: 5, now: () => now });
  assert.deepEqual([1, 2, 3, 4].map(() => b.take("a")), ["write", "write", "last", "drop"]);
  assert.deepEqual([1, 2, 3].map(() => b.take("b")), ["write", "last-overall", "drop"], "overall limit of 5 reached");
  assert.equal(b.take("c"), "drop");
  now = 1000;
  assert.equal(b.take("a"), "write", "a new window");
});
