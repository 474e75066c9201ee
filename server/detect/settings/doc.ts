// One small JSON document in a folder plus the shared version stamp (store.ts): operators write it, detect workers
// and the audio detector re-read it when the stamp changes, so changes apply to the next frame or segment.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { bumpStamp, stampKey, writeJsonAtomic, writeQueue } from "../store";

const DOC_FILE = "settings.json";

/** The stored document, or undefined when none was written yet (or it is not JSON). */
export function readDocSync(dir: string): unknown {
  try {
    return JSON.parse(readFileSync(path.join(dir, DOC_FILE), "utf8"));
  } catch {
    return undefined;
  }
}

/** Read-modify-write of the document, one change at a time; the stamp is bumped after each write. */
export function docWriter(dir: string) {
  const serial = writeQueue();
  return {
    read: async (): Promise<unknown> => JSON.parse(await readFile(path.join(dir, DOC_FILE), "utf8").catch(() => "null")) ?? undefined,
    update<T>(fn: (current: unknown) => Promise<{ next: unknown; result: T }> | { next: unknown; result: T }): Promise<T> {
      return serial(async () => {
        const current = JSON.parse(await readFile(path.join(dir, DOC_FILE), "utf8").catch(() => "null")) ?? undefined;
        const { next, result } = await fn(current);
        await writeJsonAtomic(path.join(dir, DOC_FILE), next);
        await bumpStamp(dir);
        return result;
      });
    },
  };
}

/**
 * Holds what `build` makes of the document and rebuilds it when the stamp changed (one ~100-byte read per call).
 * Without a folder it builds once from `undefined` (the built-in defaults).
 */
export class DocWatcher<T> {
  private key: string | undefined;
  private value: T | undefined;

  constructor(private readonly dir: string | undefined, private readonly build: (doc: unknown) => T) {}

  /** A change stamp: differs after every write (for callers that derive more state from the value). */
  get version(): string {
    return this.key ?? "";
  }

  get(): T {
    const key = this.dir ? stampKey(this.dir) : "";
    if (this.value === undefined || key !== this.key) {
      this.key = key;
      this.value = this.build(this.dir ? readDocSync(this.dir) : undefined);
    }
    return this.value;
  }
}
