import fs from "node:fs/promises";

/**
 * DATA_DIR holds the database (password hashes, the audit log), the evidence media and the secrets. One this
 * process creates is readable by its account only (0700); an existing one is never changed (an operator's shared
 * folder, or /tmp, must not be locked): when other accounts may read it, the log says so. What the server creates
 * inside (database, media) is 0700 in any case (`privateDir`).
 */
export async function ownDataDir(dataDir: string, log: (m: string) => void): Promise<void> {
  const existed = await fs.stat(dataDir).then(() => true, () => false);
  await privateDir(dataDir);
  if (!existed) return;
  const st = await fs.stat(dataDir);
  if ((st.mode & 0o077) !== 0) log(`> DATA_DIR ${dataDir} is readable by other accounts (mode ${(st.mode & 0o777).toString(8)}): what the server keeps inside is private, but consider chmod 700`);
}

/** mkdir -p with 0700 for what it creates, and 0700 for the last folder when this call created it. */
export async function privateDir(dir: string): Promise<void> {
  const created = await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  if (created !== undefined) await fs.chmod(dir, 0o700); // the umask may have taken bits from mkdir's mode
}
