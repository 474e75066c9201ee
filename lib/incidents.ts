// Incidents and the review queue: shapes shared by the server (server/incidents), route handlers and the page.
import { z } from "zod";
import type { RiskLevel } from "./dashboard-api";

export const INCIDENT_STATES = ["open", "confirmed", "cleared", "escalated"] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];
export const INCIDENT_DECISIONS = ["confirmed", "cleared", "escalated"] as const;
export type IncidentDecision = (typeof INCIDENT_DECISIONS)[number];
export const DECISION_NAMES: Record<IncidentDecision, string> = { confirmed: "Confirmed violation", cleared: "Cleared", escalated: "Escalated" };

export type IncidentSourceKind = "stream" | "file";
/** Frames and audio segments form separate incidents (their evidence differs: a picture vs a transcript). */
export type IncidentMedia = "frame" | "audio";

/** What made a frame or segment a hit, read from its riskDetail (QR contents, matched words, transcript, …). */
export interface Evidence {
  qr: string[];
  /** every word a keyword list matched (OCR or transcript), with the list and the entry that matched it */
  words: Array<{ list: string; word: string; entry?: string }>;
  ocrText?: string;
  transcript?: string;
  track?: { list: string; entry: string; offsetSec?: number; score?: number };
  hashMatch?: { list: string; entry: string; distance: number };
  faces: string[];
}

/** One frame or audio segment of an incident. `t`/`endT`: seconds on the incident's time base. */
export interface IncidentHit {
  itemId: string;
  t: number;
  endT: number;
  score: number;
  riskLevel: RiskLevel;
  /** English "Category: Sub-label" names of its labels in this incident's category */
  labels: string[];
  /** same-origin media link (imgUrl / audioUrl) as the service gave it */
  mediaUrl: string | null;
  evidence: Evidence;
}

const PEAK_LEVEL_RANK: Record<RiskLevel, number> = { PASS: 0, REVIEW: 1, REJECT: 2 };

/**
 * The one peak order (issue #26.1), used wherever a peak is chosen: the worst level first (REJECT > REVIEW > PASS),
 * then the highest score, then the earliest. Negative when `a` comes first (is the better peak), like a sort comparator.
 */
export function peakOrder(a: Pick<IncidentHit, "riskLevel" | "score" | "t">, b: Pick<IncidentHit, "riskLevel" | "score" | "t">): number {
  return PEAK_LEVEL_RANK[b.riskLevel] - PEAK_LEVEL_RANK[a.riskLevel] || b.score - a.score || a.t - b.t;
}

/** The peak of a non-empty list of hits by peakOrder (the first of equals). */
export function peakOf<H extends Pick<IncidentHit, "riskLevel" | "score" | "t">>(hits: readonly H[]): H {
  if (hits.length === 0) throw new Error("peakOf: no hits");
  return hits.reduce((best, h) => (peakOrder(h, best) < 0 ? h : best));
}

export interface IncidentSource {
  kind: IncidentSourceKind;
  requestId: string;
  /** btId of a file, requestId of a stream */
  ref: string;
  title: string | null;
  url: string | null;
  /** the dashboard page of the source */
  href: string;
}

export interface DecisionRecord {
  decision: IncidentDecision;
  note: string | null;
  username: string;
  at: string; // ISO
  /** taken on one of its hits (a frame or segment reviewed on its own): which, e.g. "frame at 0:06" */
  itemLabel?: string | null;
}

export interface Incident {
  id: string;
  source: IncidentSource;
  media: IncidentMedia;
  /** riskLabel1 slug shared by every hit (e.g. "ad") and its English name */
  label: string;
  labelName: string;
  /** every detailed label seen, in English ("Advertising: QR code") */
  labels: string[];
  riskLevel: RiskLevel;
  /** "epoch": start/end are Unix seconds (streams); "offset": seconds from the file's start */
  timeBase: "epoch" | "offset";
  start: number;
  end: number;
  hits: number;
  peak: IncidentHit;
  status: IncidentState;
  assignee: string | null;
  lastDecision: DecisionRecord | null;
  createdAt: string;
  updatedAt: string;
}

export interface IncidentDetail extends Incident {
  hitList: IncidentHit[];
  decisions: DecisionRecord[];
}

export const INCIDENT_SORTS = ["newest", "worst"] as const;

/** GET /api/incidents (and .csv) filters; every field optional. */
export const IncidentQuery = z.object({
  status: z.enum([...INCIDENT_STATES, "all"]).optional(),
  riskLevel: z.enum(["REVIEW", "REJECT"]).optional(),
  label: z.string().regex(/^[a-z0-9_]{1,40}$/).optional(),
  kind: z.enum(["stream", "file"]).optional(),
  requestId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/).optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  /** a username, "me" (the caller) or "none" (unassigned) */
  assignee: z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/).optional(),
  sort: z.enum(INCIDENT_SORTS).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
export type IncidentQuery = z.infer<typeof IncidentQuery>;

const Note = z.string().trim().max(2000).nullish();
export const IncidentId = z.string().regex(/^[0-9a-f]{16}$/, "unknown incident");

export const DecisionInput = z.object({ decision: z.enum(INCIDENT_DECISIONS), note: Note });
export type DecisionInput = z.infer<typeof DecisionInput>;
export const BulkDecisionInput = DecisionInput.extend({ ids: z.array(IncidentId).min(1).max(200) });
export type BulkDecisionInput = z.infer<typeof BulkDecisionInput>;
/** absent: the caller; null: nobody */
export const AssignInput = z.object({ assignee: z.string().regex(/^[A-Za-z0-9_.@-]{1,64}$/).nullish() });
export type AssignInput = z.infer<typeof AssignInput>;

/** Query-string form of the filters (list page, CSV link). */
export function incidentQueryString(q: IncidentQuery): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v !== undefined && v !== "") p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** "m:ss" for file offsets, local clock time for streams. */
export function incidentTime(i: Pick<Incident, "timeBase">, t: number): string {
  if (i.timeBase === "epoch") return new Date(t * 1000).toLocaleTimeString(undefined, { hour12: false });
  const s = Math.max(0, Math.round(t));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
