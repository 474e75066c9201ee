// `npm run eval`: labelled synthetic media through the real detectors; prints one JSON document and writes tests/eval/results.json.
// `npm run eval -- qrcode hashBank` (or `node --import tsx tests/eval/run.ts qrcode`) runs only those sets and
// replaces only their entries in results.json (the others are kept as they were, with their own date).
import { readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDetectPool } from "../../server/detect/index";
import { evalFingerprint } from "./fingerprint";
import { evalHashBank, facesAndObjects } from "./hash";
import { evalScale } from "./media";
import { CHOICE_RULE, selfCheck } from "./metrics";
import { evalNsfw } from "./nsfw";
import { evalOcr } from "./ocr";
import { evalQr } from "./qr";
import { evalSpeech } from "./speech";

const SETS = ["ocr", "qrcode", "nsfw", "hashBank", "speech", "knownAudio"] as const;
type SetName = (typeof SETS)[number];
const asked = process.argv.slice(2);
for (const a of asked) if (!(SETS as readonly string[]).includes(a)) throw new Error(`unknown eval set "${a}"; sets: ${SETS.join(", ")}`);
const only = asked.length > 0 ? new Set(asked as SetName[]) : undefined;
const runs = (name: SetName) => !only || only.has(name);
const skipped = { skipped: "not run this time" };

const t0 = performance.now();
selfCheck();
const scale = evalScale();
let failed = false;
const sectionSec: Record<string, number> = {};

/** Runs one set; a failure is recorded in the JSON (and fails the run) instead of hiding the other sets. */
async function section<T>(name: string, fn: () => Promise<T>): Promise<T | { error: string }> {
  const t = performance.now();
  try {
    return await fn();
  } catch (err) {
    failed = true;
    return { error: (err as Error).stack ?? String(err) };
  } finally {
    sectionSec[name] = Math.round((performance.now() - t) / 100) / 10;
  }
}

// only the engines these sets use: faces / objects models are not loaded (nothing labelled to run them on); every
// frame set also asks for EROTIC (its frames are NSFW negatives), so nsfw is loaded whenever a frame set runs
const frameEngines = [...(runs("qrcode") ? ["qrcode" as const] : []), ...(runs("ocr") ? ["ocr" as const] : []), "nsfw" as const];
const needPool = runs("ocr") || runs("qrcode") || runs("nsfw");
const pool = needPool ? createDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-eval-detect"), workers: 1, engines: frameEngines }) : undefined;
// the OCR set is also read by the other reader (Tesseract), on the same frames, for the comparison
const tesseractPool = runs("ocr") ? createDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-eval-detect"), workers: 1, engines: ["ocr"], ocrReader: "tesseract" }) : undefined;
// frames (one worker thread) and audio (child processes) run side by side: about one core each
const frameSets = (async () => {
  const ready = pool ? await section("frameModelsLoad", () => pool.ready()) : undefined;
  const hashBankSet = () => (runs("hashBank") ? section("hashBank", () => evalHashBank(scale)) : skipped);
  if (ready && typeof ready === "object" && "error" in ready) return { ocr: ready, qrcode: ready, nsfw: ready, hashBank: await hashBankSet() };
  const ocr = pool && runs("ocr") ? await section("ocr", async () => evalOcr(pool, scale, await tesseractPool!.ready().then(() => tesseractPool))) : skipped;
  const qrcode = pool && runs("qrcode") ? await section("qrcode", () => evalQr(pool, scale)) : skipped;
  // last: it summarises the EROTIC results of every frame above
  const nsfw = pool && runs("nsfw") ? await section("nsfw", () => evalNsfw(pool, scale)) : skipped;
  // its own pool (hash engine only, with a temporary bank)
  const hashBank = await hashBankSet();
  return { ocr, qrcode, nsfw, hashBank };
})();
const audioSets = (async () => {
  const speech = runs("speech") ? await section("speech", () => evalSpeech(scale)) : skipped;
  const knownAudio = runs("knownAudio") ? await section("knownAudio", () => evalFingerprint(scale)) : skipped;
  return { speech, knownAudio };
})();
const [frames, audio] = await Promise.all([frameSets, audioSets]);
await pool?.close();
await tesseractPool?.close();

const speech = audio.speech as { keywords?: unknown; vad?: unknown; error?: string; skipped?: string };
const out = {
  eval: "synthetic labelled media through the real detectors (tests/eval); regenerate with `npm run eval` (EVAL_SCALE=small|medium|large|<n>)",
  generatedAt: new Date().toISOString(),
  scale,
  machine: { cpus: os.cpus().length, node: process.version, loadavgAtEnd: os.loadavg().map((l) => Math.round(l * 100) / 100) },
  runtimeSec: Math.round((performance.now() - t0) / 100) / 10,
  sectionSec,
  rules: {
    counting: "tp + fn = positives. fp = negatives flagged + positives flagged only with a wrong label / QR content / reference entry (those are also fn). precision = tp/(tp+fp), recall = tp/(tp+fn), F1 = 2tp/(2tp+fp+fn); null when the denominator is 0. atPolicy = the detector exactly as shipped.",
    threshold: CHOICE_RULE,
    caveat: "all media is synthetic (rendered text, generated QR codes, flite/espeak speech, generated tunes): figures bound what the engines can do on clean material and are not field accuracy",
  },
  detectors: {
    ocrText: frames.ocr,
    qrcode: frames.qrcode,
    speechKeywords: speech.error || speech.skipped ? speech : speech.keywords,
    vad: speech.error || speech.skipped ? speech : speech.vad,
    knownAudio: audio.knownAudio,
    nsfw: frames.nsfw,
    hashBank: frames.hashBank,
    ...facesAndObjects(),
  },
};
const resultsFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "results.json");
if (only) {
  // a partial run: keep every other entry of the last results.json as it was, and say which entries are from when
  const previous = JSON.parse(await readFile(resultsFile, "utf8").catch(() => "{}")) as typeof out & { setsGeneratedAt?: Record<string, string>; sectionSec?: Record<string, number> };
  const key: Record<SetName, keyof typeof out.detectors> = { ocr: "ocrText", qrcode: "qrcode", nsfw: "nsfw", hashBank: "hashBank", speech: "speechKeywords", knownAudio: "knownAudio" };
  const setsGeneratedAt: Record<string, string> = { ...Object.fromEntries(SETS.map((n) => [n, previous.generatedAt])), ...previous.setsGeneratedAt };
  const detectors: Record<string, unknown> = { ...previous.detectors };
  for (const n of only) {
    detectors[key[n]] = out.detectors[key[n]];
    if (n === "speech") detectors.vad = out.detectors.vad;
    setsGeneratedAt[n] = out.generatedAt;
  }
  Object.assign(out, { generatedAt: previous.generatedAt ?? out.generatedAt, setsGeneratedAt, sectionSec: { ...previous.sectionSec, ...sectionSec }, detectors });
}
const json = JSON.stringify(out, null, 2);
await writeFile(resultsFile, `${json}\n`);
console.log(json);
process.exit(failed ? 1 : 0);
