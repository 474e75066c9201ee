import fs from "node:fs";
import path from "node:path";
import { OBJECT_GROUPS, type Capability } from "../detect";

/** Which eval section (tests/eval/results.json, written by `npm run eval`) measures which contract type. */
const SECTION_OF: Record<string, string> = {
  "imgType:QRCODE": "qrcode",
  "imgType:ADVERT": "ocrText",
  "imgType:IMGTEXTRISK": "ocrText",
  "imgType:EROTIC": "nsfw",
  "imgType:VIOLENT": "hashBank",
  // not measured (no labelled face / object photos offline): the note says so instead of showing a score
  ...Object.fromEntries(["FACEDETECTION", "AGE", "GENDER", "PUBLICFIGURE", "TAINTEDSTAR"].map((t) => [`imgBusinessType:${t}`, "faces"])),
  "imgType:POLITY": "faces",
  ...Object.fromEntries(OBJECT_GROUPS.map((g) => [`imgBusinessType:${g.type}`, "objects"])),
  ...Object.fromEntries(["POLITY", "EROTIC", "ADVERT", "BAN", "VIOLENT", "DIRTY", "ADLAW"].flatMap((t) => [[`audioType:${t}`, "speechKeywords"], [`audiostreamType:${t}`, "speechKeywords"]])),
  ...Object.fromEntries(["ANTHEN", "BANEDAUDIO", "COPYRIGHTSONGS"].flatMap((t) => [[`audioType:${t}`, "knownAudio"], [`audiostreamType:${t}`, "knownAudio"]])),
};

type Continuous = { perHourOfSpeech: number };
type Section = { skipped?: string; falsePositivesPerHour?: { perHourOfSegments: number; continuous?: Continuous; continuousHeldOut?: Continuous }; atPolicy?: { precision: number | null; recall: number | null; f1: number | null; fp?: number; negatives?: number }; falsePositiveRate?: number; negatives?: number; precision?: number | null; recall?: number | null };

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

/** The speech false-positive rate: per hour of continuous unrelated speech where measured, else per hour of segments. */
function fpPerHour(f: Section["falsePositivesPerHour"]): string {
  if (!f) return "";
  if (f.continuous && f.continuousHeldOut) return `, ${f.continuous.perHourOfSpeech} false positives per hour of continuous unrelated speech (${f.continuousHeldOut.perHourOfSpeech} on speech held out from every rule)`;
  if (f.continuous) return `, ${f.continuous.perHourOfSpeech} false positives per hour of continuous unrelated speech`;
  return `, ${f.perHourOfSegments} false positives per hour of unrelated speech segments`;
}

/** Adds the measured precision/recall (synthetic eval set) to each supported capability's note. */
export function withMeasuredScores(caps: Capability[]): Capability[] {
  const s = sections();
  if (!s) return caps;
  return caps.map((c) => {
    const key = SECTION_OF[`${c.group}:${c.type}`];
    const m = key ? s[key] : undefined;
    if (!c.supported || !m) return c;
    const p = m.atPolicy ?? m;
    const negatives = m.atPolicy?.negatives ?? m.negatives;
    const fp = m.atPolicy?.fp ?? Math.round((m.falsePositiveRate ?? 0) * (negatives ?? 0));
    const score = m.skipped
      ? "not measured by npm run eval (no labelled photographs offline); only spot checks on the sample photos in @vladmandic/human (server/detect/README.md)"
      : p.precision !== null && p.precision !== undefined
        ? `measured on the synthetic eval set: precision ${pct(p.precision)}, recall ${pct(p.recall)}${fpPerHour(m.falsePositivesPerHour)}`
        : `measured on the synthetic eval set: ${fp} false positives on ${negatives} negatives; recall not measured: no labelled positives offline`;
    return { ...c, note: `${c.note ? `${c.note} · ` : ""}${score}` };
  });
}
