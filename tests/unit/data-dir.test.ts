import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ownDataDir } from "../../server/setup/data-dir";

test("DATA_DIR is created private (0700) and an existing one readable by others is made private", async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "data-dir-"));
  try {
    const fresh = path.join(root, "a", "data");
    await ownDataDir(fresh, () => undefined);
    assert.equal((await fs.stat(fresh)).mode & 0o777, 0o700);
    const open = path.join(root, "open");
    await fs.mkdir(open, { mode: 0o755 });
    await fs.chmod(open, 0o755);
    const logs: string[] = [];
    await ownDataDir(open, (m) => logs.push(m));
    assert.equal((await fs.stat(open)).mode & 0o777, 0o700);
    assert.deepEqual(logs, []);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});
