import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

const digest = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest();

/** Holds the accepted accessKeys as digests; lookups compare every key in constant time. */
export class AccessKeys {
  private readonly digests: Buffer[];
  constructor(keys: string[]) {
    this.digests = keys.map(digest);
  }

  /** Returns the key id (digest prefix) when accepted, else null; runs the same work for any input. */
  check(candidate: unknown): string | null {
    const d = digest(typeof candidate === "string" ? candidate : "");
    let match: Buffer | null = null;
    for (const k of this.digests) if (crypto.timingSafeEqual(k, d)) match = k;
    return match && typeof candidate === "string" ? keyId(candidate) : null;
  }
}

export const keyId = (key: string) => digest(key).subarray(0, 8).toString("hex");

/** MODERATION_ACCESS_KEYS, or a key generated at first start and kept in DATA_DIR. */
export async function resolveAccessKeys(configured: string[] | null, dataDir: string): Promise<{ keys: string[]; generated: boolean }> {
  if (configured) return { keys: configured, generated: false };
  const file = path.join(dataDir, "access-key");
  try {
    const key = (await fs.readFile(file, "utf8")).trim();
    if (key) return { keys: [key], generated: true };
  } catch {
    /* first start */
  }
  // vendor accessKeys are ≤20 chars
  const key = crypto.randomBytes(10).toString("hex");
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(file, key + "\n", { mode: 0o600 });
  return { keys: [key], generated: true };
}

/** A secret kept in DATA_DIR (created on first use), e.g. for signing media URLs. */
export async function dataDirSecret(dataDir: string, name: string): Promise<Buffer> {
  const file = path.join(dataDir, `${name}.secret`);
  try {
    const hex = (await fs.readFile(file, "utf8")).trim();
    if (hex.length >= 64) return Buffer.from(hex, "hex");
  } catch {
    /* create below */
  }
  const secret = crypto.randomBytes(32);
  await fs.mkdir(dataDir, { recursive: true });
  await fs.writeFile(file, secret.toString("hex"), { mode: 0o600 });
  return secret;
}
