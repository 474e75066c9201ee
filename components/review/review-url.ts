import { IncidentId, IncidentQuery, type Incident } from "@/lib/incidents";

/** What the queue shows; `sinceSec` is kept relative and turned into `since` when the list is fetched. */
export interface Filters {
  query: IncidentQuery;
  sinceSec: number;
}

export const SINCE_CHOICES = [0, 3600, 86_400, 7 * 86_400] as const;
const FIELDS = ["status", "riskLevel", "label", "kind", "assignee", "requestId", "sort"] as const;

/**
 * The queue's state as it is kept in /review's query string: filters, sort, `since` (seconds back) and the
 * current incident (`id`). Unknown or malformed values are dropped, so a hand-edited link still opens.
 * Without `status`, a link to one incident shows every state (it may be decided already), the bare page the open ones.
 */
const defaults = (id: string | null): IncidentQuery => ({ status: id ? "all" : "open", sort: "newest" });

export function reviewStateFromParams(params: URLSearchParams): { filters: Filters; id: string | null } {
  const idParse = IncidentId.safeParse(params.get("id"));
  const id = idParse.success ? idParse.data : null;
  const query: IncidentQuery = defaults(id);
  for (const k of FIELDS) {
    const raw = params.get(k);
    if (raw === null || raw === "") continue;
    const r = IncidentQuery.shape[k].safeParse(raw);
    if (r.success && r.data !== undefined) Object.assign(query, { [k]: r.data });
  }
  const since = Number(params.get("since"));
  const sinceSec = (SINCE_CHOICES as readonly number[]).includes(since) ? since : 0;
  return { filters: { query, sinceSec }, id };
}

/** The query string (with its "?") that reviewStateFromParams reads back to the same state; defaults left out. */
export function reviewStateToSearch(filters: Filters, id: string | null): string {
  const p = new URLSearchParams();
  const omit = defaults(id);
  for (const k of FIELDS) {
    const v = filters.query[k];
    if (v !== undefined && v !== "" && v !== omit[k]) p.set(k, String(v));
  }
  if (filters.sinceSec > 0) p.set("since", String(filters.sinceSec));
  if (id) p.set("id", id);
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** Where Enter takes a reviewer: the source page, a stream at the incident's evidence frame (its page reads ?at=). */
export function sourceLink(i: Pick<Incident, "source" | "timeBase" | "peak">): string {
  return i.source.kind === "stream" && i.timeBase === "epoch" ? `${i.source.href}?at=${i.peak.t}` : i.source.href;
}
