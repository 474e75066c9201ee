import { LABEL1_NAMES, labelName } from "../../lib/labels";
import type { Evidence, IncidentHit, IncidentMedia } from "../../lib/incidents";
import type { RiskLevel } from "../../lib/dashboard-api";

/**
 * Reads one frame or audio segment of a contract body (docs/api.md §3.2–3.4, §3.6) into incident hits: one per
 * risk category (riskLabel1) it carries at REVIEW or REJECT. Frames that were captured but not checked
 * (auxInfo.detectType 2) give none.
 */
export interface Hit {
  media: IncidentMedia;
  /** riskLabel1 slug: hits sharing it (and their source and media) group into one incident */
  label: string;
  hit: IncidentHit;
  /** the contract body the hit came from (a stream callback, or a file's frame / segment entry) */
  body: Record<string, unknown>;
  /** stream hits: the received callback's id */
  callbackId?: number;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const level = (v: unknown): RiskLevel | undefined => (v === "PASS" || v === "REVIEW" || v === "REJECT" ? v : undefined);

export const LEVEL_RANK: Record<RiskLevel, number> = { PASS: 0, REVIEW: 1, REJECT: 2 };

/** "Advertising: QR code" — the English names of a label path, repeated levels folded. */
export function englishLabel(l1: string, l2 = "", l3 = ""): string {
  const parts = [labelName(l1, 1, "en")];
  for (const [slug, lvl] of [[l2, 2], [l3, 3]] as const) {
    const name = slug ? labelName(slug, lvl, "en") : "";
    if (name && !parts.includes(name)) parts.push(name);
  }
  return parts.join(": ");
}

export const categoryName = (l1: string) => (Object.prototype.hasOwnProperty.call(LABEL1_NAMES, l1) ? LABEL1_NAMES[l1].en : l1);

interface LabelEntry {
  l1: string;
  l2: string;
  l3: string;
  level: RiskLevel;
  score: number;
  riskDetail: Obj | undefined;
}

/** The label entries of a detail at REVIEW/REJECT: allLabels, or the detail's own labels when it lists none. */
function entriesOf(d: Obj): LabelEntry[] {
  const top = level(d.riskLevel) ?? "PASS";
  const listed = arr(d.allLabels).map(obj).filter((e): e is Obj => e !== undefined);
  const raw = listed.length > 0 ? listed : [d];
  return raw
    .map((e) => ({ l1: str(e.riskLabel1) ?? "", l2: str(e.riskLabel2) ?? "", l3: str(e.riskLabel3) ?? "", level: level(e.riskLevel) ?? top, score: num(e.probability) ?? 0, riskDetail: obj(e.riskDetail) }))
    .filter((e) => e.level !== "PASS" && e.l1 !== "" && e.l1 !== "normal");
}

function addWords(ev: Evidence, lists: unknown) {
  for (const l of arr(lists).map(obj)) {
    for (const w of arr(l?.words).map(obj)) {
      const word = str(w?.word);
      if (!word) continue;
      const hit = { list: str(l?.name) ?? "", word, ...(str(w?.entry) ? { entry: str(w?.entry) } : {}) };
      if (!ev.words.some((x) => x.list === hit.list && x.word === hit.word)) ev.words.push(hit);
    }
  }
}

/** QR contents, matched words, OCR text, transcript, matched track or image, face names. */
export function evidenceOf(details: Array<Obj | undefined>, extra: { qr?: unknown; transcript?: unknown; ocrText?: unknown } = {}): Evidence {
  const ev: Evidence = { qr: [], words: [], faces: [] };
  const addQr = (v: unknown) => {
    const s = str(v);
    if (s && !ev.qr.includes(s)) ev.qr.push(s);
  };
  for (const rd of details) {
    if (!rd) continue;
    for (const o of arr(rd.objects).map(obj)) addQr(o?.qrContent);
    const ocr = obj(rd.ocrText);
    if (ocr) {
      ev.ocrText ??= str(ocr.text);
      addWords(ev, ocr.matchedLists);
    }
    addWords(ev, rd.matchedLists);
    ev.transcript ??= str(rd.audioText);
    const track = obj(rd.matchedTrack);
    if (track && !ev.track) ev.track = { list: str(track.list) ?? "", entry: str(track.entry) ?? "", offsetSec: num(track.offsetSec), score: num(track.score) };
    const hash = obj(rd.hashMatch);
    if (hash && !ev.hashMatch) ev.hashMatch = { list: str(hash.list) ?? "", entry: str(hash.entry) ?? "", distance: num(hash.distance) ?? 0 };
    for (const f of arr(rd.faces).map(obj)) {
      const name = str(f?.name);
      if (name && !ev.faces.includes(name)) ev.faces.push(name);
    }
  }
  addQr(extra.qr);
  ev.ocrText ??= str(extra.ocrText);
  ev.transcript ??= str(extra.transcript);
  return ev;
}

/** One hit per risk category of a frame or segment detail (none for PASS or unchecked frames). */
function hitsOfDetail(media: IncidentMedia, d: Obj, at: { itemId: string; t: number; endT: number }, body: Obj, callbackId?: number): Hit[] {
  if (media === "frame" && obj(d.auxInfo)?.detectType === 2) return [];
  const byLabel = new Map<string, LabelEntry[]>();
  for (const e of entriesOf(d)) byLabel.set(e.l1, [...(byLabel.get(e.l1) ?? []), e]);
  const top = obj(d.riskDetail);
  return [...byLabel].map(([label, entries]) => {
    const own = entries.map((e) => e.riskDetail).filter((x) => x !== undefined);
    const evidence = evidenceOf(own.length > 0 ? own : [top], {
      qr: media === "frame" && own.length === 0 ? obj(d.auxInfo)?.qrContent : undefined,
      ocrText: obj(top?.ocrText)?.text ?? d.imgText,
      transcript: media === "audio" ? (top?.audioText ?? d.audioText ?? d.content) : undefined,
    });
    const riskLevel = entries.reduce<RiskLevel>((w, e) => (LEVEL_RANK[e.level] > LEVEL_RANK[w] ? e.level : w), "REVIEW");
    const hit: IncidentHit = {
      itemId: at.itemId,
      t: at.t,
      endT: Math.max(at.t, at.endT),
      // the score of the verdict at its level: a REVIEW QR at 1.0 beside REJECT ad text at 0.7 is a 0.7 REJECT hit
      score: Math.max(...entries.filter((e) => e.level === riskLevel).map((e) => e.score)),
      riskLevel,
      labels: [...new Set(entries.map((e) => englishLabel(e.l1, e.l2, e.l3)))],
      mediaUrl: str(media === "frame" ? d.imgUrl : d.audioUrl) ?? null,
      evidence,
    };
    return { media, label, hit, body, ...(callbackId !== undefined ? { callbackId } : {}) };
  });
}

/** "YYYY-MM-DD HH:mm:ss(.SSS)" in the service's local time → Unix seconds (undefined when unreadable). */
export function localStampSec(s: unknown): number | undefined {
  const m = typeof s === "string" ? /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)$/.exec(s.trim()) : null;
  if (!m) return undefined;
  const ms = new Date(`${m[1]}T${m[2]}`).getTime();
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

/** A stream callback (video frame, video audio segment, audio stream segment) → its hits, on the epoch time base. */
export function hitsOfStreamCallback(body: Obj, receivedAt: Date, callbackId?: number): Hit[] {
  if (body.statCode === 1 || body.code !== 1100) return [];
  const itemId = str(body.requestId) ?? `callback-${callbackId ?? "?"}`;
  const fallback = receivedAt.getTime() / 1000;
  const frame = obj(body.frameDetail);
  if (frame) {
    const t = localStampSec(obj(frame.auxInfo)?.imgTime) ?? fallback;
    return hitsOfDetail("frame", frame, { itemId, t, endT: t }, body, callbackId);
  }
  const audio = obj(body.audioDetail);
  if (!audio) return [];
  const aux = obj(audio.auxInfo) ?? {};
  const t = localStampSec(aux.audioStartTime ?? aux.audio_starttime) ?? fallback;
  const endT = localStampSec(aux.audioEndTime ?? aux.audio_endtime) ?? t;
  return hitsOfDetail("audio", audio, { itemId, t, endT }, body, callbackId);
}

/** A file result (code 1100) → the hits of its frames and audio segments, on the file's offset time base. */
export function hitsOfFileResult(body: Obj): Hit[] {
  if (body.code !== 1100) return [];
  const out: Hit[] = [];
  arr(body.frameDetail).forEach((raw, i) => {
    const f = obj(raw);
    if (!f) return;
    const t = num(f.time) ?? 0;
    out.push(...hitsOfDetail("frame", f, { itemId: str(f.requestId) ?? `frame-${i}`, t, endT: t }, f));
  });
  arr(body.audioDetail).forEach((raw, i) => {
    const a = obj(raw);
    if (!a) return;
    const t = num(a.audioStarttime) ?? 0;
    out.push(...hitsOfDetail("audio", a, { itemId: str(a.requestId) ?? `audio-${i}`, t, endT: num(a.audioEndtime) ?? t }, a));
  });
  return out;
}
