import fs from "node:fs/promises";

/**
 * Creates DATA_DIR readable by this account only (0700), and makes an existing one so: it holds the database
 * (password hashes, the audit log), the evidence media and the secrets, which other accounts on the machine
 * must not read whatever modes the files inside got from the umask.
 */
export async function ownDataDir(dataDir: string, log: (m: string) => void): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
  const st = await fs.stat(dataDir);
  if ((st.mode & 0o077) === 0) return;
  try {
    await fs.chmod(dataDir, 0o700);
  } catch (err) {
    log(`> DATA_DIR ${dataDir} is readable by other accounts and could not be made private (${(err as NodeJS.ErrnoException).code ?? err}): chmod 700 it`);
  }
}
