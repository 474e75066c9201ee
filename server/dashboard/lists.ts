import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { GALLERY_LISTS, fileFaceGallery, type FaceGallery, type GalleryList } from "../detect/gallery";
import { fileHashBank, type HashBank } from "../detect/hash-bank";
import { fileReferenceTracks, REFERENCE_LISTS, type FileReferenceTracks, type ReferenceListName } from "../detect/audio";
import { fileKeywordLists } from "../detect/lists/store";
import { filePolicy } from "../detect/settings/policy-store";
import type { DetectPool } from "../detect";
import { resolveFfmpeg } from "../ingest/ffmpeg";

import type { ListKind } from "../../lib/dashboard-api";

export interface ListEntry {
  list: string;
  entry: string;
  detail: string;
}

/**
 * Operator-managed reference lists and keyword lists, and the run-time thresholds (`policy`), stored in DATA_DIR
 * (the detect pool and audio detector read the same folders: keyword-lists/, policy/); the detectors re-read them
 * without a restart.
 */
export function createLists(o: { dataDir: string; detect: DetectPool }) {
  const faces: FaceGallery = fileFaceGallery(path.join(o.dataDir, "face-gallery"), { embedder: o.detect });
  const images: HashBank = fileHashBank(path.join(o.dataDir, "hash-bank"));
  const audio: FileReferenceTracks = fileReferenceTracks(path.join(o.dataDir, "audio-references"), { ffmpeg: resolveFfmpeg().path });
  const keywords = fileKeywordLists(path.join(o.dataDir, "keyword-lists"));
  const policy = filePolicy(path.join(o.dataDir, "policy"), () => keywords.effective());

  return {
    /** keyword lists (image text and speech): add / remove entries, create lists; inputs validated (InputError) */
    keywords,
    /** run-time thresholds per detector and label */
    policy,

    /** Every list with its entries. */
    async all() {
      const [f, i, a, k] = await Promise.all([faces.list(), images.list(), audio.list(), keywords.all()]);
      return {
        faces: { lists: [...GALLERY_LISTS], entries: f.map((e) => ({ list: e.list, entry: e.entry, detail: `${e.references} reference photo(s)` })) },
        images: { lists: ["prohibited", "violent", "terror"], entries: i.map((e) => ({ list: e.list, entry: e.entry, detail: `pHash ${e.hash}` })) },
        audio: { lists: [...REFERENCE_LISTS], entries: a.map((e) => ({ list: e.list, entry: e.entry, detail: `${Math.round(e.durationSec)} s fingerprint` })) },
        keywords: k,
      };
    },

    /** Adds an uploaded file as an entry; throws with a message an operator can act on. */
    async add(kind: ListKind, list: string, entry: string, file: { name: string; bytes: Uint8Array }): Promise<string> {
      if (!entry.trim()) throw new Error("entry name is required");
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), "list-upload-"));
      const shown = path.basename(file.name).replace(/[^\w.-]/g, "_") || "upload";
      const tmp = path.join(dir, shown);
      try {
        await fs.writeFile(tmp, file.bytes);
        if (kind === "faces") {
          if (!(GALLERY_LISTS as readonly string[]).includes(list)) throw new Error(`list must be one of ${GALLERY_LISTS.join(", ")}`);
          const r = await faces.add(list as GalleryList, entry.trim(), tmp);
          return `face added (${r.references} reference photo(s) for ${entry.trim()})`;
        }
        if (kind === "images") {
          const r = await images.add(list, entry.trim(), tmp);
          return `image hashed (${r.hash})`;
        }
        if (!(REFERENCE_LISTS as readonly string[]).includes(list)) throw new Error(`list must be one of ${REFERENCE_LISTS.join(", ")}`);
        await audio.add(list as ReferenceListName, entry.trim(), tmp);
        return "track fingerprinted";
      } catch (err) {
        // the message goes back to the browser: it names the upload, never the temp file or another server path
        const message = (err as Error)?.message ?? String(err);
        const safe = uploadError(message, { tmp, dir, shown, roots: [o.dataDir, os.tmpdir()] });
        if (safe !== message) console.warn(`[lists] ${kind} upload to ${list} failed: ${message}`);
        throw new Error(safe, { cause: err });
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    },

    async remove(kind: ListKind, list: string, entry: string): Promise<void> {
      if (kind === "faces") await faces.remove(list as GalleryList, entry);
      else if (kind === "images") await images.remove(list, entry);
      else await audio.remove(list as ReferenceListName, entry);
    },

    close: () => faces.close(),
  };
}

export type Lists = ReturnType<typeof createLists>;

/**
 * An upload's error message fit for the client: the temp copy is named by the uploaded name, and any other
 * path under `roots` (DATA_DIR, the temp folder) or absolute path (after a space, quote, bracket or "=")
 * becomes "<path>".
 */
export function uploadError(message: string, o: { tmp: string; dir: string; shown: string; roots: readonly string[] }): string {
  let out = message.split(o.tmp).join(o.shown).split(o.dir + path.sep).join("").split(o.dir).join("<path>");
  for (const root of [...new Set(o.roots.filter((r) => r.length > 1))].sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(escapeRegExp(root) + PATH_REST, "g"), "<path>");
  }
  return out.replace(ABSOLUTE_PATH, "$1<path>");
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** The rest of a path: up to a space, quote, bracket, parenthesis or ":;," (punctuation in messages). */
const PATH_REST = String.raw`[^\s'"\x60()\[\]:;,]*`;
/** An absolute path starting the text or after a space, quote, bracket or "=" (so not the path of a URL). */
const ABSOLUTE_PATH = /(^|[\s'"`([=])\/[^\s'"`()[\]:;,]+/g;
