// Operator side of the face gallery: add reference photos (embedded off the main thread), remove, list.
import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GALLERY_LISTS, type GalleryList, type GalleryRecord } from "./gallery-store";
import { POLICY } from "./policy";
import { WorkerDetectPool } from "./pool";
import { bumpStamp, checkEntryName, checkListName, entryFileName, readRecords, writeJsonAtomic, writeQueue } from "./store";
import type { FaceEmbedding } from "./types";

export { GALLERY_LISTS, type GalleryList } from "./gallery-store";

/** Anything that can embed the largest face of an image: a DetectPool with the faces engine does. */
export interface FaceEmbedder {
  /** optional so that any DetectPool can be passed; a missing method fails add() */
  embedLargestFace?(image: Uint8Array): Promise<FaceEmbedding | null>;
}

export interface GalleryEntryInfo {
  list: GalleryList;
  entry: string;
  references: number;
  sources: string[];
}

export interface FaceGallery {
  readonly dir: string;
  /** Embed the largest face of the photo and add it as a reference of `entry` (entries may hold several photos). */
  add(list: GalleryList, entry: string, imagePath: string): Promise<{ faces: number; references: number; probability: number }>;
  /** Remove the entry with all its references; false when it did not exist. */
  remove(list: GalleryList, entry: string): Promise<boolean>;
  list(): Promise<GalleryEntryInfo[]>;
  /** Stops the embedding worker this gallery started itself (none when an embedder was passed in). */
  close(): Promise<void>;
}

const IDLE_CLOSE_MS = 30_000;

/** A faces-only worker pool, started on first use and stopped after IDLE_CLOSE_MS without work. */
class LazyEmbedder implements FaceEmbedder {
  private pool: WorkerDetectPool | undefined;
  private idle: NodeJS.Timeout | undefined;

  async embedLargestFace(image: Uint8Array): Promise<FaceEmbedding | null> {
    clearTimeout(this.idle);
    this.pool ??= new WorkerDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-face-embedder"), workers: 1, engines: ["faces"] });
    try {
      await this.pool.ready();
      return await this.pool.embedLargestFace(image);
    } finally {
      this.idle = setTimeout(() => void this.close(), IDLE_CLOSE_MS);
      this.idle.unref();
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.idle);
    const pool = this.pool;
    this.pool = undefined;
    await pool?.close();
  }
}

const round5 = (x: number): number => Math.round(x * 1e5) / 1e5;

/**
 * The gallery in `dir`: one JSON file per entry under <dir>/<list>/ plus a version stamp that detect workers
 * check before each frame, so additions and removals apply without a restart.
 */
export function fileFaceGallery(dir: string, opts: { embedder?: FaceEmbedder } = {}): FaceGallery {
  const own = opts.embedder ? undefined : new LazyEmbedder();
  const embed = (image: Uint8Array): Promise<FaceEmbedding | null> => {
    const e = opts.embedder ?? own!;
    if (!e.embedLargestFace) return Promise.reject(new TypeError("the embedder given to fileFaceGallery has no embedLargestFace()"));
    return e.embedLargestFace(image);
  };
  const serial = writeQueue();
  const fileOf = (list: string, entry: string) => path.join(dir, list, entryFileName(entry));

  return {
    dir,
    async add(list, entry, imagePath) {
      checkListName(list, GALLERY_LISTS);
      checkEntryName(entry);
      const found = await embed(new Uint8Array(await readFile(imagePath)));
      if (!found) throw new Error(`no face found in ${path.basename(imagePath)} (face score ≥ ${POLICY.faces.minScore} needed)`);
      return serial(async () => {
        const file = fileOf(list, entry);
        const prev = await readFile(file, "utf8").then((t) => JSON.parse(t) as GalleryRecord, () => undefined);
        const references = [...(prev?.references ?? [])];
        references.push({ embedding: found.embedding.map(round5), source: path.basename(imagePath), location: found.location, probability: found.probability, addedAt: Date.now() });
        const record: GalleryRecord = { list, entry, references: references.slice(-POLICY.gallery.maxReferencesPerEntry) };
        await writeJsonAtomic(file, record);
        await bumpStamp(dir);
        return { faces: found.faces, references: record.references.length, probability: found.probability };
      });
    },
    remove(list, entry) {
      checkListName(list, GALLERY_LISTS);
      return serial(async () => {
        const file = fileOf(list, entry);
        const existed = await readFile(file).then(() => true, () => false);
        await rm(file, { force: true });
        if (existed) await bumpStamp(dir);
        return existed;
      });
    },
    async list() {
      const records = await readRecords<GalleryRecord>(dir);
      return records
        .filter((r) => (GALLERY_LISTS as readonly string[]).includes(r.list))
        .map((r) => ({ list: r.list, entry: r.entry, references: r.references.length, sources: r.references.map((x) => x.source) }))
        .sort((a, b) => a.list.localeCompare(b.list) || a.entry.localeCompare(b.entry));
    },
    async close() {
      await own?.close();
    },
  };
}
