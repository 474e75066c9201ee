// The context beside a decision (issue #26.5): the same source's other incidents and, by the contract's tokenId
// (the end user), that user's other streams, files and incidents with their decisions. Shapes shared by
// server/incidents/context.ts, GET /api/incidents/<id> (`context`) and components/review/IncidentContext.tsx.
import type { RiskLevel } from "./dashboard-api";
import type { DecisionRecord, IncidentMedia, IncidentSourceKind, IncidentState } from "./incidents";

/** Lists are bounded: the newest this many of each, with the totals beside them. */
export const CONTEXT_LIMIT = 20;

export interface ContextIncident {
  type: "incident";
  id: string;
  source: { kind: IncidentSourceKind; requestId: string; ref: string; title: string | null; href: string };
  media: IncidentMedia;
  label: string;
  labelName: string;
  riskLevel: RiskLevel;
  status: IncidentState;
  /** the latest decision (who, when, note), null while open */
  decision: DecisionRecord | null;
  timeBase: "epoch" | "offset";
  start: number;
  end: number;
  hits: number;
  createdAt: string;
  /** started before the incident the context is for (same source: by time in it; other sources: by creation) */
  earlier: boolean;
  /** its review page */
  href: string;
}

export interface ContextSource {
  type: "stream" | "file";
  requestId: string;
  /** a stream's requestId, a file's btId */
  ref: string;
  title: string | null;
  href: string;
  /** stream: running / ended; file: queued / processing / done / failed */
  status: string;
  /** worst level the stream reached, or the file's result */
  riskLevel: RiskLevel | null;
  at: string; // ISO: started (stream) or submitted (file)
  origin: "dashboard" | "api";
  keyName: string | null;
  incidents: number;
  confirmed: number;
  cleared: number;
}

/** Counts over every item (not only the listed ones). */
export interface ContextCounts {
  incidents: number;
  earlier: number;
  open: number;
  confirmed: number;
  cleared: number;
  escalated: number;
}

export interface IncidentContext {
  /** the same source's other incidents, newest first (at most CONTEXT_LIMIT) */
  sameSource: ContextIncident[];
  /** the end user's other streams and files (newest first), then their incidents (newest first); empty without a tokenId */
  sameUser: Array<ContextSource | ContextIncident>;
  /** the source's end user (contract tokenId); null when none was given */
  tokenId: string | null;
  summary: {
    sameSource: ContextCounts;
    sameUser: ContextCounts & { streams: number; files: number };
  };
  limit: number;
}

/** "3 earlier incidents, 2 confirmed" (with later ones: "4 other incidents (3 earlier), 2 confirmed"). */
export function contextHeadline(c: ContextCounts): string {
  if (c.incidents === 0) return "no other incidents";
  const later = c.incidents - c.earlier;
  const what = later === 0 ? `${c.earlier} earlier incident${c.earlier === 1 ? "" : "s"}` : `${c.incidents} other incident${c.incidents === 1 ? "" : "s"} (${c.earlier} earlier)`;
  const parts = [what, `${c.confirmed} confirmed`];
  if (c.escalated) parts.push(`${c.escalated} escalated`);
  if (c.cleared) parts.push(`${c.cleared} cleared`);
  if (c.open) parts.push(`${c.open} open`);
  return parts.join(", ");
}
