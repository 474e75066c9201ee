import { DECISION_NAMES, incidentTime, type Incident } from "../../lib/incidents";

export { exportIncident } from "./evidence-zip";

/** Streams: ISO time; files: m:ss from the start. */
const when = (i: Incident, t: number) => (i.timeBase === "epoch" ? new Date(t * 1000).toISOString() : incidentTime(i, t));

const CSV_COLUMNS = ["id", "status", "riskLevel", "category", "labels", "sourceKind", "source", "title", "start", "end", "hits", "peakScore", "qrContent", "matchedWords", "transcript", "assignee", "lastDecision", "decidedBy", "decidedAt", "note", "link"] as const;

/** A CSV cell: quoted, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
function cell(v: unknown): string {
  let s = v === null || v === undefined ? "" : String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

/** The filtered list as CSV (GET /api/incidents.csv). */
export function incidentsCsv(list: Incident[], origin: string): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const i of list) {
    const ev = i.peak.evidence;
    const row = [
      i.id, i.status, i.riskLevel, i.labelName, i.labels.join("; "), i.source.kind, i.source.ref, i.source.title ?? "",
      when(i, i.start), when(i, i.end), i.hits, i.peak.score,
      ev.qr.join(" "), ev.words.map((w) => w.word).join("; "), ev.transcript ?? "", i.assignee ?? "",
      i.lastDecision ? DECISION_NAMES[i.lastDecision.decision] : "", i.lastDecision?.username ?? "", i.lastDecision?.at ?? "", i.lastDecision?.note ?? "",
      `${origin}/review?id=${i.id}`,
    ];
    lines.push(row.map(cell).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
