import fs from "node:fs";
import path from "node:path";
import type { Capability } from "../detect";

/** Which eval section (tests/eval/results.json, written by `npm run eval`) measures which contract type. */
const SECTION_OF: Record<string, string> = {
  "imgType:QRCODE": "qrcode",
  "imgType:ADVERT": "ocrText",
  "imgType:IMGTEXTRISK": "ocrText",
  "imgType:EROTIC": "nsfw",
  "imgType:VIOLENT": "hashBank",
  ...Object.fromEntries(["POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "DIRTY", "ADLAW"].flatMap((t) => [[`audioType:${t}`, "speechKeywords"], [`audiostreamType:${t}`, "speechKeywords"]])),
  ...Object.fromEntries(["ANTHEN", "BANEDAUDIO", "COPYRIGHTSONGS"].flatMap((t) => [[`audioType:${t}`, "knownAudio"], [`audiostreamType:${t}`, "knownAudio"]])),
};

type Section = { atPolicy?: { precision: number | null; recall: number | null; f1: number | null }; falsePositiveRate?: number; negatives?: number; precision?: number | null; recall?: number | null };

let cached: Record<string, Section> | null | undefined;

function sections(): Record<string, Section> | null {
  if (cached !== undefined) return cached;
  try {
    cached = JSON.parse(fs.readFileSync(path.resolve("tests/eval/results.json"), "utf8")).detectors as Record<string, Section>;
  } catch {
    cached = null;
  }
  return cached;
}

const pct = (n: number | null | undefined) => (typeof n === "number" ? `${Math.round(n * 100)} %` : "n/a");

/** Adds the measured precision/recall (synthetic eval set) to each supported capability's note. */
export function withMeasuredScores(caps: Capability[]): Capability[] {
  const s = sections();
  if (!s) return caps;
  return caps.map((c) => {
    const key = SECTION_OF[`${c.group}:${c.type}`];
    const m = key ? s[key] : undefined;
    if (!c.supported || !m) return c;
    const p = m.atPolicy ?? m;
    const score = p.precision !== null && p.precision !== undefined ? `precision ${pct(p.precision)}, recall ${pct(p.recall)}` : `false positives ${pct(m.falsePositiveRate)} of ${m.negatives} negatives (no positives measurable offline)`;
    return { ...c, note: `${c.note ? `${c.note} · ` : ""}measured on the synthetic eval set: ${score}` };
  });
}
