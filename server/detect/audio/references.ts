// Reference tracks for known-audio matching (anthem / banned songs / copyright songs): fingerprints kept as JSON files.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fingerprintFile } from "./fingerprint";
import { fileInputOptions } from "../../ingest/ffmpeg";
import { startProcess } from "../../ingest/process";
import type { ReferenceListName } from "./policy";

export type { ReferenceListName };
export const REFERENCE_LISTS: readonly ReferenceListName[] = ["anthem", "banned_songs", "copyright_songs"];

/**
 * Playback speeds a reference is also fingerprinted at (speed and pitch together, as a sped-up or slowed-down
 * upload plays): chromaprint's chroma features move with the pitch, so a copy played 6 % fast no longer matches the
 * original's print, but it matches the print of the original played 6 % fast. Steps of 3 % leave at most 1.5 %.
 */
export const REFERENCE_SPEEDS = [0.94, 0.97, 1.03, 1.06] as const;

export interface ReferenceTrack {
  list: ReferenceListName;
  entry: string;
  fingerprint: Int32Array | number[];
  durationSec: number;
  /** the same track fingerprinted at REFERENCE_SPEEDS (absent for references stored before speeds were kept) */
  variants?: Array<{ speed: number; fingerprint: Int32Array }>;
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
  variants?: Array<{ speed: number; fingerprint: number[] }>;
  source: string;
  addedAt: string;
}

/** The media at `speed` × its playback speed (pitch moves with it), fingerprinted. */
async function fingerprintAtSpeed(mediaPath: string, speed: number, ffmpeg: string): Promise<number[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ref-speed-"));
  try {
    const wav = path.join(dir, "speed.wav");
    const p = startProcess(ffmpeg, ["-v", "error", "-nostdin", ...fileInputOptions(), "-i", mediaPath, "-vn", "-ac", "1", "-af", `aresample=22050,asetrate=${Math.round(22050 * speed)},aresample=22050`, "-y", wav], { timeoutMs: 120_000 });
    const r = await p.done;
    if (r.spawnError || r.stoppedBy || r.code !== 0) throw new Error(`ffmpeg could not change the speed of ${path.basename(mediaPath)}: ${r.spawnError?.message ?? r.stoppedBy ?? r.stderr.trim().split("\n").pop()}`);
    return (await fingerprintFile(wav)).fingerprint;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function checkList(list: string): asserts list is ReferenceListName {
  if (!REFERENCE_LISTS.includes(list as ReferenceListName)) throw new Error(`unknown reference list "${list}" (use ${REFERENCE_LISTS.join(", ")})`);
}

/** `<dir>/<list>/<entry, URI-encoded>.json`; the list is cached and reread when a list folder changes. */
export function fileReferenceTracks(dir: string, o: { ffmpeg?: string } = {}): FileReferenceTracks {
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
          tracks.push({ list, entry: t.entry, durationSec: t.durationSec, fingerprint: Int32Array.from(t.fingerprint), variants: t.variants?.map((v) => ({ speed: v.speed, fingerprint: Int32Array.from(v.fingerprint) })) });
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
      const variants = [];
      for (const speed of REFERENCE_SPEEDS) variants.push({ speed, fingerprint: await fingerprintAtSpeed(mediaPath, speed, o.ffmpeg ?? "ffmpeg") });
      const stored: StoredTrack = { list, entry, durationSec: fp.durationSec, fingerprint: fp.fingerprint, variants, source: path.basename(mediaPath), addedAt: new Date().toISOString() };
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
