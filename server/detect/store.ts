// Shared file layout of the face gallery and the hash bank: <dir>/<list>/<entry file>.json + a version stamp.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";

/** Rewritten (temp file + rename) after every change: readers compare its identity to know when to reload. */
export const STAMP_FILE = ".version.json";

export interface Stamp {
  version: number;
  updatedAt: number;
  /** entries per list */
  counts: Record<string, number>;
}

const LIST_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export function checkListName(list: string, allowed?: readonly string[]): void {
  if (allowed ? !allowed.includes(list) : !LIST_NAME.test(list)) {
    throw new TypeError(`invalid list name ${JSON.stringify(list)}${allowed ? ` (one of ${allowed.join(", ")})` : " (a-z, 0-9, _ and -)"}`);
  }
}

export function checkEntryName(entry: string): void {
  if (typeof entry !== "string" || entry.trim() === "" || entry.length > 200) throw new TypeError("entry must be a non-empty name of at most 200 characters");
}

/** Lower-case ASCII letters and digits of the name (accents folded); "" when none (e.g. a Chinese name). */
export function slugOf(entry: string): string {
  return entry.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/** A file name that is safe on every filesystem and unique per entry name. */
export function entryFileName(entry: string): string {
  const hash = createHash("sha1").update(entry).digest("hex").slice(0, 12);
  return `${slugOf(entry).slice(0, 40) || "entry"}-${hash}.json`;
}

export async function writeJsonAtomic(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await writeFile(tmp, JSON.stringify(value));
  await rename(tmp, file);
}

export function readStampSync(dir: string): Stamp | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, STAMP_FILE), "utf8")) as Stamp;
  } catch {
    return undefined;
  }
}

/** The stamp's text (a few dozen bytes; the version inside changes with every rewrite); "" when absent. */
export function stampKey(dir: string): string {
  try {
    return readFileSync(path.join(dir, STAMP_FILE), "utf8");
  } catch {
    return "";
  }
}

/** Every stored record, list by list (files vanishing mid-read are skipped). */
export async function readRecords<T>(dir: string): Promise<T[]> {
  const out: T[] = [];
  const lists = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const l of lists) {
    if (!l.isDirectory() || !LIST_NAME.test(l.name)) continue;
    const files = await readdir(path.join(dir, l.name)).catch(() => [] as string[]);
    for (const f of files) {
      if (!f.endsWith(".json")) continue;
      const text = await readFile(path.join(dir, l.name, f), "utf8").catch(() => undefined);
      if (text === undefined) continue;
      try {
        out.push(JSON.parse(text) as T);
      } catch {
        // a foreign or half-copied file: not ours to fail on
      }
    }
  }
  return out;
}

/** Recount the lists and rewrite the stamp with the next version. */
export async function bumpStamp(dir: string): Promise<Stamp> {
  const counts: Record<string, number> = {};
  const lists = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const l of lists) {
    if (!l.isDirectory() || !LIST_NAME.test(l.name)) continue;
    const n = (await readdir(path.join(dir, l.name))).filter((f) => f.endsWith(".json")).length;
    if (n > 0) counts[l.name] = n;
  }
  const stamp: Stamp = { version: (readStampSync(dir)?.version ?? 0) + 1, updatedAt: Date.now(), counts };
  await writeJsonAtomic(path.join(dir, STAMP_FILE), stamp);
  return stamp;
}

/** Entries per list according to the stamp; {} when the folder is unset or empty. */
export function countsOf(dir: string | undefined): Record<string, number> {
  return dir ? readStampSync(dir)?.counts ?? {} : {};
}

/** Runs changes one at a time: each is a read-modify-write of an entry file plus the version stamp. */
export function writeQueue(): <T>(fn: () => Promise<T>) => Promise<T> {
  let chain: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = chain.then(fn, fn);
    chain = run.catch(() => {});
    return run;
  };
}
