import fs from "node:fs/promises";
import type { AudioDetector, SegmentVerdict } from "../detect/audio";
import { readWavPcm16 } from "../ingest/wav";
import { encodeWavPcm16 } from "../ingest/live-pcm";

/** Vendor fields of an audio verdict (SegmentVerdict also carries internal ones: silent, match, timings…). */
export function audioVerdictFields(v: SegmentVerdict) {
  return {
    riskLevel: v.riskLevel,
    riskLabel1: v.riskLabel1,
    riskLabel2: v.riskLabel2,
    riskLabel3: v.riskLabel3,
    riskDescription: v.riskDescription,
    // extension: which reference track matched, and where (known-audio hits: ANTHEN / BANEDAUDIO / COPYRIGHTSONGS)
    riskDetail: v.match ? { ...v.riskDetail, matchedTrack: v.match } : v.riskDetail,
    allLabels: v.allLabels,
    businessLabels: v.businessLabels,
    vadCode: v.vadCode,
    ...(v.audioText !== undefined ? { audioText: v.audioText } : {}),
  };
}

/** Runs audio detection; a detector failure leaves the segment unlabelled and says which types were not applied. */
export async function detectAudio(audio: AudioDetector, input: { wavPath: string; types: string[]; businessTypes: string[]; lang: "zh" | "en"; previousText?: string }, log: (m: string) => void): Promise<SegmentVerdict> {
  if (input.types.length === 0 && input.businessTypes.length === 0) return unlabelled(input.lang, [], 0);
  try {
    return await audio.detectSegment(input);
  } catch (err) {
    log(`audio segment ${input.wavPath} not detected: ${(err as Error).message}`);
    return unlabelled(input.lang, [...input.types, ...input.businessTypes], 0);
  }
}

function unlabelled(lang: "zh" | "en", notApplied: string[], vadCode: 0 | 1): SegmentVerdict {
  return { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: lang === "en" ? "Normal" : "正常", vadCode, riskDetail: { riskSource: 1000 }, allLabels: [], businessLabels: [], silent: false, applied: [], notApplied, timingsMs: {} };
}

/** previous + current segment as one WAV (returnPreAudio): both are 16 kHz mono s16 from the same pull. */
export async function concatWavs(first: string, second: string, out: string): Promise<void> {
  const [a, b] = await Promise.all([fs.readFile(first), fs.readFile(second)]).then((bufs) => bufs.map(readWavPcm16));
  const pcm = (p: { samples: Int16Array }) => Buffer.from(p.samples.buffer, p.samples.byteOffset, p.samples.byteLength);
  await fs.writeFile(out, encodeWavPcm16(Buffer.concat([pcm(a), pcm(b)]), a.sampleRate));
}
