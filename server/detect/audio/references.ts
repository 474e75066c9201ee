// Reference tracks for known-audio matching (anthem / banned songs / copyright songs): fingerprints kept as JSON files.
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { fingerprintFile } from "./fingerprint";
import type { ReferenceListName } from "./policy";

export type { ReferenceListName };
export const REFERENCE_LISTS: readonly ReferenceListName[] = ["anthem", "banned_songs", "copyright_songs"];

export interface ReferenceTrack {
  list: ReferenceListName;
  entry: string;
  fingerprint: Int32Array | number[];
  durationSec: number;
}

export interface ReferenceTracks {
  list(): Promise<ReferenceTrack[]>;
}

export interface FileReferenceTracks extends ReferenceTracks {
  /** fingerprints `mediaPath` (any format ffmpeg/fpcalc decode) and stores it as `entry` of `list`, replacing one of that name */
  add(list: ReferenceListName, entry: string, mediaPath: string): Promise<void>;
  remove(list: ReferenceListName, entry: string): Promise<void>;
}

interface StoredTrack {
  list: ReferenceListName;
  entry: string;
  durationSec: number;
  fingerprint: number[];
  source: string;
  addedAt: string;
}

function checkList(list: string): asserts list is ReferenceListName {
  if (!REFERENCE_LISTS.includes(list as ReferenceListName)) throw new Error(`unknown reference list "${list}" (use ${REFERENCE_LISTS.join(", ")})`);
}

/** `<dir>/<list>/<entry, URI-encoded>.json`; the list is cached and reread when a list folder changes. */
export function fileReferenceTracks(dir: string): FileReferenceTracks {
  const fileOf = (list: ReferenceListName, entry: string) => path.join(dir, list, `${encodeURIComponent(entry)}.json`);
  let cache: { stamp: string; tracks: ReferenceTrack[] } | null = null;

  // folder mtimes change whenever a file inside is added, renamed or removed
  const stampOf = async () =>
    (await Promise.all(REFERENCE_LISTS.map(async (l) => (existsSync(path.join(dir, l)) ? (await stat(path.join(dir, l))).mtimeMs : 0)))).join(",");

  return {
    async list() {
      const stamp = await stampOf();
      if (cache?.stamp === stamp) return cache.tracks;
      const tracks: ReferenceTrack[] = [];
      for (const list of REFERENCE_LISTS) {
        const folder = path.join(dir, list);
        if (!existsSync(folder)) continue;
        for (const name of (await readdir(folder)).filter((n) => n.endsWith(".json")).sort()) {
          const t = JSON.parse(await readFile(path.join(folder, name), "utf8")) as StoredTrack;
          tracks.push({ list, entry: t.entry, durationSec: t.durationSec, fingerprint: Int32Array.from(t.fingerprint) });
        }
      }
      cache = { stamp, tracks };
      return tracks;
    },
    async add(list, entry, mediaPath) {
      checkList(list);
      if (entry.trim() === "") throw new Error("reference entry name is empty");
      const fp = await fingerprintFile(mediaPath);
      if (fp.fingerprint.length === 0) throw new Error(`no audio fingerprint could be taken from ${path.basename(mediaPath)}`);
      const stored: StoredTrack = { list, entry, durationSec: fp.durationSec, fingerprint: fp.fingerprint, source: path.basename(mediaPath), addedAt: new Date().toISOString() };
      const file = fileOf(list, entry);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(stored));
      await rename(tmp, file);
      cache = null;
    },
    async remove(list, entry) {
      checkList(list);
      await rm(fileOf(list, entry), { force: true });
      cache = null;
    },
  };
}
