// Eval media cache: files generated on demand into tests/.media/eval (gitignored), keyed by a hash of their spec.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { mediaDir } from "../support/media";

/** Bump when generation changes, so cached files are rebuilt. */
const GENERATOR_VERSION = 1;

export function evalDir(): string {
  const dir = path.join(mediaDir(), "eval");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Path of the cached file for (name, spec); `make` builds its bytes only when the file is missing. */
export async function cachedBytes(name: string, spec: unknown, ext: string, make: () => Promise<Buffer>): Promise<string> {
  const key = createHash("sha256").update(JSON.stringify({ GENERATOR_VERSION, name, spec })).digest("hex").slice(0, 12);
  const file = path.join(evalDir(), `${name.replace(/[^A-Za-z0-9_-]+/g, "-").slice(0, 40)}-${key}.${ext}`);
  if (existsSync(file)) return file;
  const tmp = `${file}.${randomBytes(4).toString("hex")}.part`;
  try {
    await writeFile(tmp, await make());
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
  return file;
}

/** Deterministic PRNG (mulberry32), so every run builds the same set. */
export { prng } from "../support/prng";

/** EVAL_SCALE: small (1, default) | medium (2) | large (4) | a positive number; multiplies the size of every set. */
export function evalScale(env = process.env.EVAL_SCALE): number {
  const named: Record<string, number> = { small: 1, medium: 2, large: 4 };
  if (!env) return 1;
  const n = named[env] ?? Number(env);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`EVAL_SCALE must be small, medium, large or a positive number, got "${env}"`);
  return n;
}
