import { Readable } from "node:stream";
import { and, asc, eq, gt, or, type SQL } from "drizzle-orm";
import yazl from "yazl";
import type { IncidentHit } from "../../lib/incidents";
import { incidentHits } from "../store/schema";
import type { MediaEntry, MediaReader } from "./media";
import { getIncident, type ReviewDeps } from "./review";

/** yazl's lazy entry (its typings lack it): the stream is asked for only when the zip reaches the entry. */
type LazyZip = InstanceType<typeof yazl.ZipFile> & { addReadStreamLazy(name: string, options: { compress?: boolean }, open: (cb: (err: Error | null, s: Readable) => void) => void): void };

/** Hits (with their contract bodies) read from the store at a time while incident.json is written. */
const PAGE = 200;

/**
 * GET /api/incidents/<id>/export: a zip with every frame image of the incident (JPEG, read from disk through the
 * media store), every audio clip of an audio incident, the evidence clips of its REJECT frames (a stream's or a file's)
 * (clips/<frame>.mp4, server/preview; embedded service only), and incident.json — the incident, each hit with the
 * contract body it came from, its peak (also the zip's first entry, peak.jpg), and the decisions. Media already deleted by retention is listed under "missing".
 *
 * Memory stays flat whatever the incident's size: entries are only named up front; each file is opened when the zip
 * reaches it and streamed (never held whole), and incident.json is written last, a page of hits at a time. `done`
 * runs once when the download ends, fails or is cancelled.
 */
export async function exportIncident(d: ReviewDeps & { readMedia: MediaReader; log?: (m: string) => void }, id: string, done: () => void = () => undefined): Promise<{ filename: string; body: ReadableStream<Uint8Array> } | null> {
  const incident = await getIncident(d, id);
  if (!incident) return null;
  const zip = new yazl.ZipFile() as LazyZip;
  const out = zip.outputStream;
  const files: string[] = [];
  const missing = new Set<string>();
  const fileOf = new Map<string, string>();
  const open = new Set<Readable>();
  /** A lazily streamed entry; media gone by the time it is read leaves an empty entry, listed as missing. */
  const add = (name: string, media: MediaEntry, itemId: string | null) => {
    files.push(name);
    zip.addReadStreamLazy(name, { compress: false }, (cb: (err: Error | null, s: Readable) => void) => {
      void media.open().then((stream) => {
        if (!stream) {
          if (itemId) missing.add(itemId);
          files.splice(files.indexOf(name), 1);
          return cb(null, Readable.from([]));
        }
        open.add(stream);
        // yazl does not watch its sources: a read error ends the download instead of the process
        stream.once("error", (err) => out.destroy(err)).once("close", () => open.delete(stream));
        cb(null, stream);
      }, (err: Error) => out.destroy(err));
    });
  };
  // the peak (the worst hit: lib/incidents.ts peakOrder) comes first, as peak.jpg / peak.<audio ext>
  const peak = incident.peak;
  const peakMedia = peak.mediaUrl ? await d.readMedia(peak.mediaUrl, incident.source.requestId) : null;
  const peakFile = peakMedia ? `peak${incident.media === "frame" ? ".jpg" : peakMedia.ext}` : null;
  if (peakMedia && peakFile) add(peakFile, peakMedia, null);
  let n = 0;
  for (const hit of incident.hitList) {
    n += 1;
    if (hit.mediaUrl) {
      const media = await d.readMedia(hit.mediaUrl, incident.source.requestId);
      if (media) {
        const safeItem = hit.itemId.replace(/[^A-Za-z0-9_-]/g, "_");
        const file = incident.media === "frame" ? `frames/${String(n).padStart(4, "0")}-${safeItem}.jpg` : `audio/${String(n).padStart(4, "0")}-${safeItem}${media.ext}`;
        fileOf.set(hit.itemId, file);
        add(file, media, hit.itemId);
      } else missing.add(hit.itemId);
    }
    // a clip is named after the first REJECT frame it covers (frames close together share one)
    const frame = hit.riskLevel === "REJECT" ? /_v(\d+)$/.exec(hit.itemId)?.[1] : undefined;
    const clip = frame ? await d.readMedia(`/media/${incident.source.requestId}/clips/${frame}.mp4`, incident.source.requestId) : null;
    if (clip) add(`clips/${frame}.mp4`, clip, null);
  }
  const { hitList: _omit, ...summary } = incident;
  // written when the zip reaches it, after every media entry: `missing` and `files` are final by then
  zip.addReadStreamLazy("incident.json", {}, (cb: (err: Error | null, s: Readable) => void) => {
    const exportedAt = new Date().toISOString();
    const peakEntry = { itemId: peak.itemId, t: peak.t, riskLevel: peak.riskLevel, score: peak.score, file: peakFile && files.includes(peakFile) ? peakFile : null, hitFile: missing.has(peak.itemId) ? null : (fileOf.get(peak.itemId) ?? null), evidence: peak.evidence };
    const doc = Readable.from(incidentJson(d, id, summary, peakEntry, fileOf, missing, files, exportedAt));
    doc.once("error", (err) => out.destroy(err));
    cb(null, doc);
  });
  zip.end();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    for (const s of open) s.destroy();
    done();
  };
  out.once("close", release).once("end", release).once("error", (err: Error) => {
    d.log?.(`incidents: export of ${id} failed: ${err.message}`);
    release();
  });
  return { filename: `incident-${id}.zip`, body: pulled(out) };
}

/**
 * A web stream that reads `out` only when its consumer asks (a slow client holds back the zip, and so the files);
 * cancelling it destroys `out`. (Readable.toWeb let a cancelled stream keep enqueuing: an uncaught error.)
 */
function pulled(out: Readable): ReadableStream<Uint8Array> {
  const chunks = out[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await chunks.next();
          if (done) controller.close();
          else controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        } catch (err) {
          controller.error(err);
        }
      },
      async cancel() {
        out.destroy(); // a generator never started ignores return(): destroy the source itself
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** incident.json, a page of hits (with their contract bodies) at a time. */
async function* incidentJson(d: ReviewDeps, id: string, summary: object, peak: object, fileOf: Map<string, string>, missing: Set<string>, files: string[], exportedAt: string): AsyncGenerator<string> {
  const decisions = (summary as { decisions?: unknown }).decisions;
  yield `{\n  "incident": ${JSON.stringify(summary)},\n  "peak": ${JSON.stringify(peak)},\n  "hits": [`;
  let after: { t: number; id: number } | null = null;
  let first = true;
  for (;;) {
    const where: SQL | undefined = after ? and(eq(incidentHits.incidentId, id), or(gt(incidentHits.t, after.t), and(eq(incidentHits.t, after.t), gt(incidentHits.id, after.id)))) : eq(incidentHits.incidentId, id);
    const rows: Array<{ id: number; t: number; hit: unknown; body: unknown; callbackId: number | null }> = await d.db.select({ id: incidentHits.id, t: incidentHits.t, hit: incidentHits.hit, body: incidentHits.body, callbackId: incidentHits.callbackId }).from(incidentHits).where(where).orderBy(asc(incidentHits.t), asc(incidentHits.id)).limit(PAGE);
    if (rows.length === 0) break;
    let chunk = "";
    for (const r of rows) {
      const hit = r.hit as unknown as IncidentHit;
      const file = missing.has(hit.itemId) ? null : (fileOf.get(hit.itemId) ?? null);
      chunk += `${first ? "" : ","}\n    ${JSON.stringify({ ...hit, file, peak: hit.itemId === (peak as { itemId: string }).itemId, callbackId: r.callbackId, resultBody: r.body })}`;
      first = false;
    }
    yield chunk;
    after = { t: rows[rows.length - 1].t, id: rows[rows.length - 1].id };
  }
  yield `\n  ],\n  "decisions": ${JSON.stringify(decisions)},\n  "files": ${JSON.stringify(files)},\n  "missing": ${JSON.stringify([...missing])},\n  "exportedAt": ${JSON.stringify(exportedAt)}\n}\n`;
}
