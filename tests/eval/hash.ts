// Prohibited-image hash bank (VIOLENT via pHash): edited copies of banked images vs different images; faces / objects reported as skipped.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { createDetectPool, fileHashBank, POLICY, type FrameVerdict } from "../../server/detect/index";
import { HashBankReader } from "../../server/detect/hash-bank";
import { frameHashes } from "../../server/detect/phash";
import { H, plainFrame, W } from "./frames";
import { cachedBytes, prng } from "./media";
import { breakdown, chooseThreshold, distribution, summarize, sweep, type Outcome, type ScoredCase } from "./metrics";

const DETECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../server/detect");
const LIST = "eval_banned";

/** A seeded synthetic "photo": tilted gradient, a dozen coloured shapes, light grain. */
async function scene(seed: number): Promise<string> {
  return cachedBytes(`scene-${seed}`, { seed }, "jpg", async () => {
    const rnd = prng(seed * 7919);
    const hue = () => `hsl(${Math.floor(rnd() * 360)},${40 + Math.floor(rnd() * 50)}%,${25 + Math.floor(rnd() * 50)}%)`;
    let shapes = "";
    for (let i = 0; i < 8 + Math.floor(rnd() * 6); i++) {
      const x = rnd() * W;
      const y = rnd() * H;
      const s = 60 + rnd() * 260;
      shapes += rnd() < 0.5
        ? `<ellipse cx="${x}" cy="${y}" rx="${s}" ry="${s * (0.4 + rnd())}" fill="${hue()}"/>`
        : `<rect x="${x - s / 2}" y="${y - s / 2}" width="${s * (0.5 + rnd())}" height="${s}" fill="${hue()}" transform="rotate(${Math.floor(rnd() * 90)} ${x} ${y})"/>`;
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" gradientTransform="rotate(${Math.floor(rnd() * 180)} .5 .5)"><stop offset="0" stop-color="${hue()}"/><stop offset="1" stop-color="${hue()}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
    const grain = await sharp({ create: { width: W, height: H, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 12 } } }).png().toBuffer();
    return sharp(Buffer.from(svg)).composite([{ input: grain, blend: "overlay" }]).jpeg({ quality: 90 }).toBuffer();
  });
}

type Edit = "identical" | "resize 50%" | "recompress q30" | "crop 2%" | "crop 5%" | "caption bar" | "brightness +20%" | "letterbox" | "mirror";
const EDITS: readonly Edit[] = ["identical", "resize 50%", "recompress q30", "crop 2%", "crop 5%", "caption bar", "brightness +20%", "letterbox", "mirror"];

async function edited(src: string, edit: Edit): Promise<string> {
  return cachedBytes(`edit-${edit}`, { src: path.basename(src), edit }, "jpg", async () => {
    const img = sharp(await readFile(src));
    const crop = (f: number) => img.extract({ left: Math.round(W * f), top: Math.round(H * f), width: Math.round(W * (1 - 2 * f)), height: Math.round(H * (1 - 2 * f)) });
    switch (edit) {
      case "identical": return img.jpeg({ quality: 90 }).toBuffer();
      case "resize 50%": return img.resize(W / 2, H / 2).jpeg({ quality: 85 }).toBuffer();
      case "recompress q30": return img.jpeg({ quality: 30 }).toBuffer();
      case "crop 2%": return crop(0.02).jpeg({ quality: 85 }).toBuffer();
      case "crop 5%": return crop(0.05).jpeg({ quality: 85 }).toBuffer();
      case "brightness +20%": return img.modulate({ brightness: 1.2 }).jpeg({ quality: 85 }).toBuffer();
      case "mirror": return img.flop().jpeg({ quality: 85 }).toBuffer();
      case "letterbox": {
        const inner = await img.resize(960, 540).toBuffer();
        return sharp({ create: { width: W, height: H, channels: 3, background: "#000" } }).composite([{ input: inner, left: 160, top: 90 }]).jpeg({ quality: 85 }).toBuffer();
      }
      case "caption bar": {
        const bar = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect y="${H * 0.86}" width="${W}" height="${H * 0.14}" fill="#000" fill-opacity="0.8"/><text x="40" y="${H * 0.95}" font-family="DejaVu Sans" font-size="48" fill="#fff">BREAKING: watch the full video now</text></svg>`;
        return img.composite([{ input: Buffer.from(bar) }]).jpeg({ quality: 85 }).toBuffer();
      }
    }
  });
}

interface Query {
  file: string;
  kind: string;
  /** banked entry the frame is a copy of */
  entry?: string;
}

export async function evalHashBank(scale: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "eval-hash-"));
  const bankDir = path.join(dir, "bank");
  const nBanked = Math.max(2, Math.round(6 * scale));
  const bank = fileHashBank(bankDir);
  const queries: Query[] = [];
  for (let i = 0; i < nBanked; i++) {
    const original = await scene(i + 1);
    await bank.add(LIST, `scene-${i + 1}`, original);
    for (const e of EDITS) queries.push({ file: await edited(original, e), kind: e, entry: `scene-${i + 1}` });
  }
  for (let i = 0; i < Math.max(2, Math.round(8 * scale)); i++) {
    const other = await scene(1000 + i);
    queries.push({ file: other, kind: "different image" });
    queries.push({ file: await edited(other, i % 2 ? "caption bar" : "letterbox"), kind: "different image, edited" });
  }
  for (const bg of ["light", "gradient", "noise", "testsrc2"] as const) queries.push({ file: await plainFrame(bg, 40), kind: "plain / test pattern" });

  const pool = createDetectPool({ dataDir: path.join(dir, "data"), engines: ["hash"], hashBankDir: bankDir });
  const reader = new HashBankReader(bankDir);
  try {
    await pool.ready();
    await reader.refresh();
    const rows: Array<Query & { v: FrameVerdict; nearest?: { entry: string; distance: number } }> = [];
    for (const q of queries) {
      const v = await pool.detectFrame({ jpeg: new Uint8Array(await readFile(q.file)), imgTypes: ["VIOLENT"], imgBusinessTypes: [] });
      // distances past the policy limit are not in the verdict: the engine's own matcher with no limit gives them
      const m = reader.match(await frameHashes(await readFile(q.file)), 64);
      rows.push({ ...q, v, nearest: m && { entry: m.entry, distance: m.distance } });
    }
    const hitOf = (v: FrameVerdict) => v.allLabels.find((l) => l.riskDetail.hashMatch)?.riskDetail.hashMatch;
    const outcome = (r: (typeof rows)[number]): Outcome => ({ positive: !!r.entry, flagged: !!hitOf(r.v), correct: !!r.entry && hitOf(r.v)?.entry === r.entry });
    // score = 1 - distance/64 (the engine's probability); a sweep row at threshold t is maxDistance = 64(1 - t)
    const sim = (d: number) => Math.round((1 - d / 64) * 1000) / 1000;
    const cases: ScoredCase[] = rows.map((r) => {
      const s = r.nearest ? sim(r.nearest.distance) : null;
      return r.entry ? { positive: true, score: r.nearest?.entry === r.entry ? s : null, wrongScore: r.nearest?.entry === r.entry ? null : s } : { positive: false, score: s };
    });
    const maxDistances = Array.from({ length: 25 }, (_, d) => d);
    const sweepRows = sweep(cases, maxDistances.map(sim)).map((row) => ({ maxDistance: Math.round(64 * (1 - row.threshold)), ...row }));
    const chosen = chooseThreshold(sweepRows);
    const dist = (pred: (r: (typeof rows)[number]) => boolean) => distribution(rows.filter(pred).map((r) => r.nearest?.distance ?? 64));
    return {
      detector: "64-bit DCT pHash of the frame and of its border-trimmed content vs the bank (server/detect/hash-bank.ts, engines/hash.ts), imgType VIOLENT",
      label: "positive = an edited copy of a banked image; correct = hashMatch.entry is that image. Negatives: other images (plain and edited), plain backgrounds and test patterns.",
      banked: nBanked,
      frames: rows.length,
      atPolicy: { maxDistance: POLICY.hash.maxDistance, ...summarize(rows.map(outcome)) },
      nearestDistanceByEdit: Object.fromEntries(EDITS.map((e) => [e, dist((r) => r.kind === e)])),
      nearestDistanceNegatives: dist((r) => !r.entry),
      sweep: sweepRows,
      chosen: { ...chosen, maxDistance: chosen.row ? Math.round(64 * (1 - chosen.row.threshold)) : null, note: "threshold on 1 - distance/64; the lowest threshold = the largest maxDistance" },
      byEdit: breakdown(rows, (r) => r.kind, outcome),
      trimmedMatches: rows.filter((r) => hitOf(r.v)?.trimmed).length,
    };
  } finally {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Faces and objects have engines but no labelled material offline: say so instead of inventing numbers. */
export function facesAndObjects(): Record<string, { skipped: string }> {
  const has = (f: string) => existsSync(path.join(DETECT, f));
  return {
    faces: {
      skipped: has("engines/faces.ts")
        ? "engines/faces.ts exists, but no labelled face photographs (or gallery identities) are available offline and synthetic renders are not faces: not measured"
        : "no face engine in server/detect when the eval ran",
    },
    objects: {
      skipped: has("engines/objects.ts")
        ? "engines/objects.ts exists, but no labelled photographs with / without people or objects are available offline: not measured"
        : "no object engine in server/detect when the eval ran",
    },
  };
}
