import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { ownDataDir, privateDir } from "../../server/setup/data-dir";

test("DATA_DIR: one the server creates is private (0700); an existing one is never changed, the log says when others may read it", async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "data-dir-"));
  try {
    const fresh = path.join(root, "a", "data");
    const quiet: string[] = [];
    await ownDataDir(fresh, (m) => quiet.push(m));
    assert.equal((await fs.stat(fresh)).mode & 0o777, 0o700);
    assert.deepEqual(quiet, []);
    const shared = path.join(root, "shared");
    await fs.mkdir(shared);
    await fs.chmod(shared, 0o755);
    const logs: string[] = [];
    await ownDataDir(shared, (m) => logs.push(m));
    assert.equal((await fs.stat(shared)).mode & 0o777, 0o755, "an operator's folder keeps its mode");
    assert.match(logs.join("\n"), /readable by other accounts \(mode 755\)/);
    // what the server keeps inside (database, media) is private whatever the folder's mode
    const media = path.join(shared, "media");
    await privateDir(media);
    assert.equal((await fs.stat(media)).mode & 0o777, 0o700);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
});
