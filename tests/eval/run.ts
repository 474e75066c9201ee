// `npm run eval`: labelled synthetic media through the real detectors; prints one JSON document and writes tests/eval/results.json.
import { writeFile } from "node:fs/promises";
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

// only the engines these sets use: faces / objects models are not loaded (nothing labelled to run them on)
const pool = createDetectPool({ dataDir: path.join(os.tmpdir(), "moderation-eval-detect"), workers: 1, engines: ["qrcode", "ocr", "nsfw"] });
// frames (one worker thread) and audio (child processes) run side by side: about one core each
const frameSets = (async () => {
  const ready = await section("frameModelsLoad", () => pool.ready());
  if (ready && typeof ready === "object" && "error" in ready) return { ocr: ready, qrcode: ready, nsfw: ready, hashBank: await section("hashBank", () => evalHashBank(scale)) };
  const ocr = await section("ocr", () => evalOcr(pool, scale));
  const qrcode = await section("qrcode", () => evalQr(pool, scale));
  // last: it summarises the EROTIC results of every frame above
  const nsfw = await section("nsfw", () => evalNsfw(pool, scale));
  // its own pool (hash engine only, with a temporary bank)
  const hashBank = await section("hashBank", () => evalHashBank(scale));
  return { ocr, qrcode, nsfw, hashBank };
})();
const audioSets = (async () => {
  const speech = await section("speech", () => evalSpeech(scale));
  const knownAudio = await section("knownAudio", () => evalFingerprint(scale));
  return { speech, knownAudio };
})();
const [frames, audio] = await Promise.all([frameSets, audioSets]);
await pool.close();

const speech = audio.speech as { keywords?: unknown; vad?: unknown; error?: string };
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
    speechKeywords: speech.error ? speech : speech.keywords,
    vad: speech.error ? speech : speech.vad,
    knownAudio: audio.knownAudio,
    nsfw: frames.nsfw,
    hashBank: frames.hashBank,
    ...facesAndObjects(),
  },
};
const json = JSON.stringify(out, null, 2);
await writeFile(path.join(path.dirname(fileURLToPath(import.meta.url)), "results.json"), `${json}\n`);
console.log(json);
process.exit(failed ? 1 : 0);
