import { Readable } from "node:stream";
import { asc, eq } from "drizzle-orm";
import yazl from "yazl";
import { DECISION_NAMES, incidentTime, type Incident, type IncidentHit } from "../../lib/incidents";
import { incidentHits } from "../store/schema";
import type { MediaReader } from "./media";
import { getIncident, type ReviewDeps } from "./review";

/** Streams: ISO time; files: m:ss from the start. */
const when = (i: Incident, t: number) => (i.timeBase === "epoch" ? new Date(t * 1000).toISOString() : incidentTime(i, t));

/**
 * GET /api/incidents/<id>/export: a zip with every frame image of the incident (JPEG, read from disk through the
 * media store), every audio clip of an audio incident, the evidence clips of its REJECT frames (a stream's or a file's)
 * (clips/<frame>.mp4, server/preview; embedded service only), and incident.json — the incident, its peak (also the
 * zip's first entry, peak.jpg), each hit with the contract body it came from, and the decisions. Media already deleted by retention is listed under "missing".
 */
export async function exportIncident(d: ReviewDeps & { readMedia: MediaReader }, id: string): Promise<{ filename: string; body: ReadableStream<Uint8Array> } | null> {
  const incident = await getIncident(d, id);
  if (!incident) return null;
  const rows = await d.db.select({ hit: incidentHits.hit, body: incidentHits.body, callbackId: incidentHits.callbackId }).from(incidentHits).where(eq(incidentHits.incidentId, id)).orderBy(asc(incidentHits.t), asc(incidentHits.id));
  const zip = new yazl.ZipFile();
  const files: string[] = [];
  const missing: string[] = [];
  const hits = [];
  let n = 0;
  // the peak (the worst hit: lib/incidents.ts peakOrder) comes first, as peak.jpg / peak.<audio ext>
  const peak = incident.peak;
  const peakData = peak.mediaUrl ? await d.readMedia(peak.mediaUrl, incident.source.requestId) : null;
  const peakFile = peakData ? `peak${incident.media === "frame" ? ".jpg" : peakData.ext}` : null;
  if (peakData && peakFile) {
    zip.addBuffer(peakData.bytes, peakFile, { compress: false });
    files.push(peakFile);
  }
  let peakHitFile: string | null = null;
  for (const r of rows) {
    const hit = r.hit as unknown as IncidentHit;
    n += 1;
    let file: string | null = null;
    if (hit.mediaUrl) {
      const data = await d.readMedia(hit.mediaUrl, incident.source.requestId);
      const safeItem = hit.itemId.replace(/[^A-Za-z0-9_-]/g, "_");
      if (data) {
        file = incident.media === "frame" ? `frames/${String(n).padStart(4, "0")}-${safeItem}.jpg` : `audio/${String(n).padStart(4, "0")}-${safeItem}${data.ext}`;
        zip.addBuffer(data.bytes, file, { compress: false });
        files.push(file);
      } else missing.push(hit.itemId);
    }
    if (hit.itemId === peak.itemId) peakHitFile = file;
    hits.push({ ...hit, file, peak: hit.itemId === peak.itemId, callbackId: r.callbackId, resultBody: r.body });
    // a clip is named after the first REJECT frame it covers (frames close together share one)
    const frame = hit.riskLevel === "REJECT" ? /_v(\d+)$/.exec(hit.itemId)?.[1] : undefined;
    const clip = frame ? await d.readMedia(`/media/${incident.source.requestId}/clips/${frame}.mp4`, incident.source.requestId) : null;
    if (clip) {
      zip.addBuffer(clip.bytes, `clips/${frame}.mp4`, { compress: false });
      files.push(`clips/${frame}.mp4`);
    }
  }
  const { hitList: _omit, ...summary } = incident;
  const peakEntry = { itemId: peak.itemId, t: peak.t, riskLevel: peak.riskLevel, score: peak.score, file: peakFile, hitFile: peakHitFile, evidence: peak.evidence };
  const doc = { incident: summary, peak: peakEntry, hits, decisions: incident.decisions, files, missing, exportedAt: new Date().toISOString() };
  zip.addBuffer(Buffer.from(JSON.stringify(doc, null, 2)), "incident.json");
  zip.end();
  return { filename: `incident-${id}.zip`, body: Readable.toWeb(zip.outputStream) as ReadableStream<Uint8Array> };
}

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
