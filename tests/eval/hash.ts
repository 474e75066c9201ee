// Prohibited-image hash bank (VIOLENT): edited copies of banked images (resized, recompressed, cropped ≤ 10 %, captioned,
// watermarked, colour-shifted, letterboxed, mirrored) vs ≥ 500 unrelated images; faces / objects reported as skipped.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { createDetectPool, fileHashBank, POLICY, type FrameVerdict } from "../../server/detect/index";
import { HashBankReader, METHOD_ORDER } from "../../server/detect/hash-bank";
import type { HashMatchMethod } from "../../server/detect/types";
import { frameHashes } from "../../server/detect/phash";
import { H, plainFrame, W } from "./frames";
import { nearestPdq, PDQ_MATCH_DISTANCE, PDQ_SETS, pdqEntry, pdqFrame } from "./hash-pdq";
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

type Edit =
  | "identical" | "resize 50%" | "resize 25%" | "recompress q30" | "crop 4% centred" | "crop 10% centred" | "crop 10% one corner"
  | "caption bar" | "watermark" | "brightness +20%" | "colour shift" | "letterbox" | "pillarbox" | "mirror" | "mirror + recompress";
const EDITS: readonly Edit[] = [
  "identical", "resize 50%", "resize 25%", "recompress q30", "crop 4% centred", "crop 10% centred", "crop 10% one corner",
  "caption bar", "watermark", "brightness +20%", "colour shift", "letterbox", "pillarbox", "mirror", "mirror + recompress",
];

async function edited(src: string, edit: Edit): Promise<string> {
  return cachedBytes(`edit-${edit}`, { src: path.basename(src), edit }, "jpg", async () => {
    const img = sharp(await readFile(src));
    // f of each dimension removed, split evenly (centred) or all from the top-left
    const crop = (f: number, centred = true) => img.extract({ left: Math.round(W * f * (centred ? 0.5 : 1)), top: Math.round(H * f * (centred ? 0.5 : 1)), width: Math.round(W * (1 - f)), height: Math.round(H * (1 - f)) });
    switch (edit) {
      case "identical": return img.jpeg({ quality: 90 }).toBuffer();
      case "resize 50%": return img.resize(W / 2, H / 2).jpeg({ quality: 85 }).toBuffer();
      case "resize 25%": return img.resize(W / 4, H / 4).jpeg({ quality: 75 }).toBuffer();
      case "recompress q30": return img.jpeg({ quality: 30 }).toBuffer();
      case "crop 4% centred": return crop(0.04).jpeg({ quality: 85 }).toBuffer();
      case "crop 10% centred": return crop(0.1).jpeg({ quality: 85 }).toBuffer();
      case "crop 10% one corner": return crop(0.1, false).jpeg({ quality: 85 }).toBuffer();
      case "brightness +20%": return img.modulate({ brightness: 1.2 }).jpeg({ quality: 85 }).toBuffer();
      case "colour shift": return img.modulate({ hue: 40, saturation: 1.4 }).tint({ r: 255, g: 230, b: 200 }).jpeg({ quality: 85 }).toBuffer();
      case "mirror": return img.flop().jpeg({ quality: 85 }).toBuffer();
      case "mirror + recompress": return sharp(await img.flop().resize(W / 2, H / 2).toBuffer()).jpeg({ quality: 40 }).toBuffer();
      case "letterbox": {
        const inner = await img.resize(960, 540).toBuffer();
        return sharp({ create: { width: W, height: H, channels: 3, background: "#000" } }).composite([{ input: inner, left: 160, top: 90 }]).jpeg({ quality: 85 }).toBuffer();
      }
      case "pillarbox": {
        // a 16:9 frame shown inside a 4:3 player: black bars above and below
        const inner = await img.resize(960, 540).toBuffer();
        return sharp({ create: { width: 960, height: 720, channels: 3, background: "#000" } }).composite([{ input: inner, left: 0, top: 90 }]).jpeg({ quality: 85 }).toBuffer();
      }
      case "caption bar": {
        const bar = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect y="${H * 0.86}" width="${W}" height="${H * 0.14}" fill="#000" fill-opacity="0.8"/><text x="40" y="${H * 0.95}" font-family="DejaVu Sans" font-size="48" fill="#fff">BREAKING: watch the full video now</text></svg>`;
        return img.composite([{ input: Buffer.from(bar) }]).jpeg({ quality: 85 }).toBuffer();
      }
      case "watermark": {
        // a translucent channel logo in a corner and a faint diagonal mark across the middle
        const mark = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><g opacity="0.55"><rect x="${W - 300}" y="30" width="260" height="80" rx="14" fill="#fff"/><text x="${W - 280}" y="88" font-family="DejaVu Sans" font-weight="bold" font-size="44" fill="#c00">NEWS 24</text></g><text x="${W * 0.18}" y="${H * 0.62}" font-family="DejaVu Sans" font-size="110" fill="#fff" fill-opacity="0.25" transform="rotate(-18 ${W / 2} ${H / 2})">@reposter</text></svg>`;
        return img.composite([{ input: Buffer.from(mark) }]).jpeg({ quality: 85 }).toBuffer();
      }
    }
  });
}

type NegativeKind = "shapes" | "gradient" | "noise" | "text" | "stripes";
const NEGATIVE_KINDS: readonly NegativeKind[] = ["shapes", "gradient", "noise", "text", "stripes"];

/** An unrelated synthetic image: shapes, gradients, noise, text or stripes, from its seed. */
async function unrelated(kind: NegativeKind, seed: number): Promise<string> {
  if (kind === "shapes") return scene(100000 + seed);
  return cachedBytes(`unrelated-${kind}`, { kind, seed }, "jpg", async () => {
    const rnd = prng(seed * 104729 + kind.length);
    const hue = () => `hsl(${Math.floor(rnd() * 360)},${20 + Math.floor(rnd() * 70)}%,${15 + Math.floor(rnd() * 70)}%)`;
    let body = "";
    if (kind === "gradient") {
      const nStops = 2 + Math.floor(rnd() * 3);
      const stops = Array.from({ length: nStops }, (_, i) => `<stop offset="${i / (nStops - 1)}" stop-color="${hue()}"/>`).join("");
      body = rnd() < 0.5
        ? `<defs><linearGradient id="g" gradientTransform="rotate(${Math.floor(rnd() * 360)} .5 .5)">${stops}</linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`
        : `<defs><radialGradient id="g" cx="${rnd()}" cy="${rnd()}" r="${0.3 + rnd()}">${stops}</radialGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>`;
    } else if (kind === "text") {
      const words = ["sale", "today", "news", "live", "match", "goal", "weather", "music", "直播", "新闻", "concert", "recipe", "travel", "score"];
      body = `<rect width="100%" height="100%" fill="${hue()}"/>`;
      for (let i = 0; i < 2 + Math.floor(rnd() * 5); i++) {
        const text = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => words[Math.floor(rnd() * words.length)]).join(" ");
        body += `<text x="${Math.floor(rnd() * W * 0.6)}" y="${60 + Math.floor(rnd() * (H - 80))}" font-family="${rnd() < 0.3 ? "Noto Sans CJK SC" : "DejaVu Sans"}" font-size="${24 + Math.floor(rnd() * 90)}" fill="${hue()}">${text}</text>`;
      }
    } else if (kind === "stripes") {
      const n = 3 + Math.floor(rnd() * 20);
      const vertical = rnd() < 0.5;
      for (let i = 0; i < n; i++) body += vertical ? `<rect x="${(i * W) / n}" width="${W / n + 1}" height="${H}" fill="${hue()}"/>` : `<rect y="${(i * H) / n}" width="${W}" height="${H / n + 1}" fill="${hue()}"/>`;
      body = `<g transform="rotate(${Math.floor(rnd() * 60) - 30} ${W / 2} ${H / 2}) scale(1.6) translate(${-W * 0.2} ${-H * 0.2})">${body}</g>`;
    }
    if (kind === "noise") {
      const sigma = 20 + rnd() * 60;
      const base = sharp({ create: { width: Math.round(W / (2 + rnd() * 30)), height: Math.round(H / (2 + rnd() * 30)), channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma } } });
      // coarse noise blown up (blobs) or fine grain
      return sharp(await base.png().toBuffer()).resize(W, H, { kernel: "cubic" }).jpeg({ quality: 85 }).toBuffer();
    }
    return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">${body}</svg>`)).jpeg({ quality: 85 }).toBuffer();
  });
}

interface Query {
  file: string;
  kind: string;
  /** banked entry the frame is a copy of */
  entry?: string;
}

/** Banked originals, and queries: every edit of each, plus ≥ 500 unrelated images (plain and edited) and plain frames. */
export async function hashCorpus(scale: number): Promise<{ banked: Array<{ entry: string; file: string }>; queries: Query[] }> {
  const nBanked = Math.max(4, Math.round(20 * scale));
  const banked: Array<{ entry: string; file: string }> = [];
  const queries: Query[] = [];
  for (let i = 0; i < nBanked; i++) {
    const original = await scene(i + 1);
    banked.push({ entry: `scene-${i + 1}`, file: original });
    for (const e of EDITS) queries.push({ file: await edited(original, e), kind: e, entry: `scene-${i + 1}` });
  }
  const nUnrelated = Math.max(100, Math.round(500 * scale));
  for (let i = 0; i < nUnrelated; i++) {
    const kind = NEGATIVE_KINDS[i % NEGATIVE_KINDS.length];
    const other = await unrelated(kind, i);
    queries.push({ file: other, kind: `unrelated ${kind}` });
  }
  // edited copies of unrelated scenes: the edits must not pull a different image onto a banked one
  for (let i = 0; i < Math.max(4, Math.round(20 * scale)); i++) {
    const other = await scene(1000 + i);
    queries.push({ file: await edited(other, (["caption bar", "letterbox", "mirror", "watermark", "crop 10% one corner"] as const)[i % 5]), kind: "unrelated, edited" });
  }
  for (const bg of ["light", "gradient", "noise", "testsrc2"] as const) queries.push({ file: await plainFrame(bg, 40), kind: "plain / test pattern" });
  return { banked, queries };
}

export async function evalHashBank(scale: number): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "eval-hash-"));
  const bankDir = path.join(dir, "bank");
  const bank = fileHashBank(bankDir);
  const { banked, queries } = await hashCorpus(scale);
  for (const b of banked) await bank.add(LIST, b.entry, b.file);
  const pdqEntries = await Promise.all(banked.map(async (b) => pdqEntry(b.entry, await readFile(b.file))));
  const nBanked = banked.length;
  const pool = createDetectPool({ dataDir: path.join(dir, "data"), engines: ["hash"], hashBankDir: bankDir });
  const reader = new HashBankReader(bankDir);
  type Nearest = { entry: string; distance: number; method?: string };
  try {
    await pool.ready();
    await reader.refresh();
    const rows: Array<Query & { v: FrameVerdict; nearest: Record<string, Nearest | undefined>; cpuBefore: number; cpuAfter: number; cpuPdq: number }> = [];
    for (const q of queries) {
      const bytes = await readFile(q.file);
      const v = await pool.detectFrame({ jpeg: new Uint8Array(bytes), imgTypes: ["VIOLENT"], imgBusinessTypes: [] });
      // in this process: the frame's hashes as shipped before #15 (pHash whole + trimmed) and now, with their CPU cost
      const [before, cpuBefore] = await cpuTimed(() => frameHashes(bytes, POLICY.hash.trimBorders, false));
      const [after, cpuAfter] = await cpuTimed(() => frameHashes(bytes));
      const [pdq, cpuPdq] = await cpuTimed(() => pdqFrame(bytes));
      // distances past the policy limit are not in the verdict: the engine's own matcher with no limit gives them
      const nearest: Record<string, Nearest | undefined> = {};
      for (const [name, methods] of Object.entries(METHOD_SETS)) {
        const m = reader.match(name === "pHash (before #15)" ? before : after, 64, methods);
        nearest[name] = m && { entry: m.entry, distance: m.distance, method: m.method };
      }
      for (const [name, methods] of Object.entries(PDQ_SETS)) nearest[name] = nearestPdq(pdq, pdqEntries, methods);
      // the shipped set or PDQ, PDQ's 256-bit distance / 4 on the 64-bit scale (31 of 256 ≈ 8 of 64)
      const p = nearest[PDQ_BEST];
      const s = nearest[SHIPPED];
      const p64 = p && { ...p, distance: Math.ceil(p.distance / 4) };
      nearest[UNION] = !s || (p64 && p64.distance < s.distance) ? p64 : s;
      rows.push({ ...q, v, nearest, cpuBefore, cpuAfter, cpuPdq });
    }
    type Row = (typeof rows)[number];
    const hitOf = (v: FrameVerdict) => v.allLabels.find((l) => l.riskDetail.hashMatch)?.riskDetail.hashMatch;
    const outcome = (r: Row): Outcome => ({ positive: !!r.entry, flagged: !!hitOf(r.v), correct: !!r.entry && hitOf(r.v)?.entry === r.entry });
    // the same at a given maxDistance from the nearest entry of one method set
    const outcomeAt = (set: string, maxDistance: number) => (r: Row): Outcome => {
      const n = r.nearest[set];
      const flagged = !!n && n.distance <= maxDistance;
      return { positive: !!r.entry, flagged, correct: flagged && n!.entry === r.entry };
    };
    // score = 1 - distance/64 (the engine's probability); a sweep row at threshold t is maxDistance = 64(1 - t)
    const sim = (d: number) => Math.round((1 - d / 64) * 1000) / 1000;
    const cases: ScoredCase[] = rows.map((r) => {
      const n = r.nearest[SHIPPED];
      const s = n ? sim(n.distance) : null;
      return r.entry ? { positive: true, score: n?.entry === r.entry ? s : null, wrongScore: n?.entry === r.entry ? null : s } : { positive: false, score: s };
    });
    const maxDistances = Array.from({ length: 25 }, (_, d) => d);
    const sweepRows = sweep(cases, maxDistances.map(sim)).map((row) => ({ maxDistance: Math.round(64 * (1 - row.threshold)), ...row }));
    const chosen = chooseThreshold(sweepRows);
    const dist = (set: string, pred: (r: Row) => boolean) => distribution(rows.filter(pred).map((r) => r.nearest[set]?.distance ?? (PDQ_SETS[set] ? 256 : 64)));
    const negatives = rows.filter((r) => !r.entry);
    const methodSets = Object.fromEntries([...Object.keys(METHOD_SETS), ...Object.keys(PDQ_SETS), UNION].map((set) => {
      const bits = PDQ_SETS[set] ? 256 : 64;
      const policy = bits === 256 ? PDQ_MATCH_DISTANCE : POLICY.hash.maxDistance;
      const nearestNegative = Math.min(...negatives.map((r) => r.nearest[set]?.distance ?? bits));
      return [set, {
        bits,
        atPolicy: { maxDistance: policy, ...summarize(rows.map(outcomeAt(set, policy))) },
        nearestUnrelatedDistance: nearestNegative,
        // the loosest setting still clear of every unrelated image, and what it recalls
        belowNearestUnrelated: { maxDistance: nearestNegative - 1, ...summarize(rows.map(outcomeAt(set, nearestNegative - 1))) },
        missedAtPolicy: Object.fromEntries(Object.entries(breakdown(rows.filter((r) => r.entry), (r) => r.kind, outcomeAt(set, policy))).filter(([, b]) => b.tp < b.positives).map(([k, b]) => [k, b.positives - b.tp])),
      }];
    }));
    const hits = rows.map((r) => hitOf(r.v)).filter((h) => h !== undefined);
    return {
      detector: "64-bit pHash and dHash of the frame, of its border-trimmed content and of both mirrored, vs each entry's pHash / dHash and the pHashes of its 95 % and 90 % crops (server/detect/hash-bank.ts, phash.ts, engines/hash.ts), imgType VIOLENT. PDQ (the 256-bit ThreatExchange hash, server/detect/pdq.ts, bit-exact with its C++ reference) is measured beside it in methodSets with the same fixes (dihedral mirror, trimmed content, entry crops) but the bank does not match on it: it recalled fewer edits and added no recall to the shipped set for a second decode per frame",
      label: "positive = an edited copy of a banked image; correct = hashMatch.entry is that image. Negatives: ≥ 500 unrelated synthetic images (shapes, gradients, noise, text, stripes from varied seeds), edited unrelated scenes, plain backgrounds and test patterns.",
      banked: nBanked,
      frames: rows.length,
      negatives: negatives.length,
      atPolicy: { maxDistance: POLICY.hash.maxDistance, ...summarize(rows.map(outcome)) },
      methodSets: {
        note: "each set matched in this process on the same frames (reader.match with only those methods; the PDQ sets by hash-pdq.ts#nearestPdq, distances of 256, policy = PDQ's documented 31); 'pHash (before #15)' = the frame hashes and comparisons shipped before this change; the last set = the shipped set or PDQ, PDQ's distance / 4 rounded up (≤ 32 of 256 at maxDistance 8). PDQ stays out of the bank: it loses caption bars, watermarks and colour shifts that pHash / dHash keep, its union with the shipped set recalls nothing more, and it costs about as much CPU per frame again (costPerFrameCpuMs.pdq)",
        ...methodSets,
      },
      beforeAtItsPolicy: { maxDistance: BEFORE_MAX_DISTANCE, ...summarize(rows.map(outcomeAt("pHash (before #15)", BEFORE_MAX_DISTANCE))) },
      matchedBy: Object.fromEntries(METHOD_ORDER.map((m) => [m, hits.filter((h) => h!.method === m).length])),
      trimmedMatches: hits.filter((h) => h!.trimmed).length,
      costPerFrameCpuMs: {
        note: "frameHashes CPU time in this process (this thread + sharp's threads; machine load inflates it); the engine's wall ms inside the worker next to it; pdq = hash-pdq.ts#pdqFrame (PDQ of the frame and of its trimmed content, with its own border check) on top",
        before: distribution(rows.map((r) => r.cpuBefore)),
        after: distribution(rows.map((r) => r.cpuAfter)),
        engineWallMs: distribution(rows.map((r) => r.v.timingsMs.hash ?? 0)),
        pdq: distribution(rows.map((r) => r.cpuPdq)),
      },
      nearestDistanceByEdit: Object.fromEntries(EDITS.map((e) => [e, { before: dist("pHash (before #15)", (r) => r.kind === e), shipped: dist(SHIPPED, (r) => r.kind === e), pdqOf256: dist(PDQ_BEST, (r) => r.kind === e) }])),
      nearestDistanceNegatives: { before: dist("pHash (before #15)", (r) => !r.entry), shipped: dist(SHIPPED, (r) => !r.entry), pdqOf256: dist(PDQ_BEST, (r) => !r.entry) },
      sweep: sweepRows,
      chosen: { ...chosen, maxDistance: chosen.row ? Math.round(64 * (1 - chosen.row.threshold)) : null, note: "threshold on 1 - distance/64; the lowest threshold = the largest maxDistance" },
      byEdit: breakdown(rows, (r) => r.kind, outcome),
      byEditBefore: breakdown(rows, (r) => r.kind, outcomeAt("pHash (before #15)", BEFORE_MAX_DISTANCE)),
    };
  } finally {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const SHIPPED = "all (shipped)";
const PDQ_BEST = "PDQ + mirror + trimmed + crops";
const UNION = "all (shipped) + PDQ + mirror + trimmed + crops";
/** POLICY.hash.maxDistance before #15 (pHash only) */
const BEFORE_MAX_DISTANCE = 10;
const METHOD_SETS: Record<string, ReadonlySet<HashMatchMethod>> = {
  "pHash (before #15)": new Set(["phash"]),
  "pHash + mirror": new Set(["phash", "phash-mirror"]),
  "pHash + crops": new Set(["phash", "phash-crop"]),
  "pHash + mirror + crops": new Set(["phash", "phash-mirror", "phash-crop"]),
  "pHash + mirror + dHash": new Set(["phash", "phash-mirror", "dhash", "dhash-mirror"]),
  [SHIPPED]: new Set(METHOD_ORDER),
};

/** CPU ms (process-wide) of one call; nothing else runs in this process meanwhile. */
async function cpuTimed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const c0 = process.cpuUsage();
  const out = await fn();
  const d = process.cpuUsage(c0);
  return [out, Math.round((d.user + d.system) / 100) / 10];
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
