// pocketsphinx (Debian pocketsphinx + pocketsphinx-en-us) as child processes: free transcription and keyword spotting.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { startProcess } from "../../../ingest/process";
import type { KwsPolicy } from "../policy";

export const POCKETSPHINX_MODEL_DIR = "/usr/share/pocketsphinx/model/en-us";

export interface SttWord {
  word: string;
  startSec: number;
  endSec: number;
  /** pocketsphinx posterior (0–1); low even for many correct words, so reported, never used as a gate */
  conf: number;
}

export interface KwsHit {
  /** the spotted phrase as written in the keyword file */
  phrase: string;
  startSec: number;
  endSec: number;
  prob: number;
}

export class SttError extends Error {
  override name = "SttError";
}

const FILLER = /^(<s>|<\/s>|<sil>|\[[A-Z_]+\])$/;

async function runSphinx(bin: string, args: string[], timeoutMs: number): Promise<string> {
  const p = startProcess(bin, [...args, "-logfn", "/dev/null"], { timeoutMs });
  const r = await p.done;
  if (r.spawnError) throw new SttError(`${bin} could not start: ${r.spawnError.message}`);
  if (r.stoppedBy) throw new SttError(`${bin} ${r.stoppedBy} after ${timeoutMs} ms`);
  if (r.code !== 0) throw new SttError(`${bin} exited ${r.code}: ${r.stderr.trim().split("\n").pop() ?? ""}`);
  return r.stdout.toString("utf8");
}

const TIMED = /^(\S+(?: \S+)*?)\s+(\d+\.\d+)\s+(\d+\.\d+)\s+(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/;

/** Free transcription with word times: one array of words per utterance pocketsphinx found. */
export async function transcribeFree(wavPath: string, o: { bin: string; timeoutMs: number }): Promise<SttWord[][]> {
  const out = await runSphinx(o.bin, ["-infile", wavPath, "-time", "yes"], o.timeoutMs);
  const utterances: SttWord[][] = [];
  let current: SttWord[] | null = null;
  for (const line of out.split("\n")) {
    const m = TIMED.exec(line.trim());
    if (!m || m[1].includes(" ")) {
      // a hypothesis line opens the next utterance's word list
      if (line.trim() !== "") utterances.push((current = []));
      continue;
    }
    const word = m[1].replace(/\(\d+\)$/, "");
    if (FILLER.test(word)) continue;
    if (!current) utterances.push((current = []));
    current.push({ word: word.toLowerCase(), startSec: Number(m[2]), endSec: Number(m[3]), conf: Number(m[4]) });
  }
  return utterances.filter((u) => u.length > 0);
}

/** Keyword spotting (`-kws`) with the prepared phrase and dictionary files. */
export async function spotKeywords(wavPath: string, kws: { kwsFile: string; dictFile: string }, o: { bin: string; timeoutMs: number }): Promise<KwsHit[]> {
  const out = await runSphinx(o.bin, ["-infile", wavPath, "-kws", kws.kwsFile, "-dict", kws.dictFile, "-time", "yes"], o.timeoutMs);
  const hits: KwsHit[] = [];
  for (const line of out.split("\n")) {
    const m = TIMED.exec(line.trim());
    if (m) hits.push({ phrase: m[1], startSec: Number(m[2]), endSec: Number(m[3]), prob: Number(m[4]) });
  }
  return hits.sort((a, b) => a.startSec - b.startSec);
}

export interface KwsPhrase {
  /** what pocketsphinx reports (pronunciation variants carry a `__n` suffix on the varied word) */
  spotted: string;
  /** the phrase as a list entry spells it, spliced into the transcript on a hit */
  text: string;
  phones: number;
  threshold: string;
}

export interface KwsSetup {
  kwsFile: string;
  dictFile: string;
  phrases: Map<string, KwsPhrase>;
  /** phrases left out because a word has no pronunciation */
  skipped: string[];
  /** phrases too short to spot reliably (left to the free transcript) */
  short: string[];
}

/** word → pronunciations, in dictionary order ("word(2)" lines are variants). */
export async function readCmuDict(file: string): Promise<Map<string, string[]>> {
  const dict = new Map<string, string[]>();
  for (const line of (await readFile(file, "utf8")).split("\n")) {
    const sp = line.indexOf(" ");
    if (sp <= 0) continue;
    const word = line.slice(0, sp).replace(/\(\d+\)$/, "");
    const list = dict.get(word) ?? [];
    list.push(line.slice(sp + 1).trim());
    dict.set(word, list);
  }
  return dict;
}

/**
 * Writes a keyword file and a small dictionary for `phrases` into `dir` (content-addressed, so concurrent
 * detectors never see half-written files). Each phrase gets up to `maxVariants` pronunciation combinations.
 */
export async function prepareKws(phrases: readonly string[], dir: string, dict: Map<string, string[]>, extra: Readonly<Record<string, readonly string[]>>, policy: KwsPolicy): Promise<KwsSetup> {
  const dictLines = new Map<string, string>();
  const kwsLines: string[] = [];
  const out = new Map<string, KwsPhrase>();
  const skipped: string[] = [];
  const short: string[] = [];
  for (const text of [...new Set(phrases.map((p) => p.trim().toLowerCase()))]) {
    const words = text.split(/\s+/);
    const prons = words.map((w) => [...(extra[w] ?? []), ...(dict.get(w) ?? [])]);
    if (prons.some((p) => p.length === 0)) {
      skipped.push(text);
      continue;
    }
    if (prons.reduce((n, p) => n + p[0].split(" ").length, 0) < policy.minPhones) {
      short.push(text);
      continue;
    }
    // combinations in order of preference: first pronunciations first
    let combos: number[][] = [[]];
    for (const p of prons) combos = combos.flatMap((c) => p.map((_, k) => [...c, k])).slice(0, policy.maxVariants);
    for (const combo of combos) {
      const tokens = words.map((w, i) => (combo[i] === 0 ? w : `${w}__${combo[i]}`));
      let phones = 0;
      tokens.forEach((t, i) => {
        const ph = prons[i][combo[i]];
        phones += ph.split(" ").length;
        dictLines.set(t, `${t} ${ph}`);
      });
      const exp = Math.round(Math.min(policy.maxExponent, Math.max(policy.minExponent, policy.exponentPerPhone * phones)));
      const spotted = tokens.join(" ");
      const threshold = `1e-${exp}`;
      out.set(spotted, { spotted, text, phones, threshold });
      kwsLines.push(`${spotted} /${threshold}/`);
    }
  }
  const kwsText = kwsLines.join("\n") + "\n";
  const dictText = [...dictLines.values()].sort().join("\n") + "\n";
  const hash = createHash("sha256").update(kwsText).update(dictText).digest("hex").slice(0, 12);
  await mkdir(dir, { recursive: true });
  const kwsFile = path.join(dir, `kws-${hash}.txt`);
  const dictFile = path.join(dir, `kws-${hash}.dict`);
  for (const [file, text] of [[kwsFile, kwsText], [dictFile, dictText]] as const) {
    if (existsSync(file)) continue;
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, text);
    await rename(tmp, file);
  }
  return { kwsFile, dictFile, phrases: out, skipped, short };
}
