// Live alerts: what an alert says and where it leads. Which events raise one, and how a stream's incidents fold into
// one entry, is lib/alert-fold.ts; the user's alert settings are lib/user-settings.ts (kept on the server).
import type { Incident } from "./incidents";

/** Seconds since the epoch → the stream page at that moment. */
export function timelineHref(i: Incident): string {
  return `${i.source.href}?at=${Math.floor(i.peak.t)}`;
}

/** "Advertising on Lobby cam": the notification and toast title. */
export function alertTitle(i: Incident): string {
  return `${i.riskLevel} · ${i.labelName} on ${i.source.title ?? i.source.url ?? i.source.ref}`;
}

/** The evidence in one line: QR contents, matched words, or the labels. */
export function alertSummary(i: Incident): string {
  const e = i.peak.evidence;
  if (e.qr.length > 0) return `QR: ${e.qr.join(", ")}`;
  if (e.words.length > 0) return `words: ${e.words.map((w) => w.word).join(", ")}`;
  if (e.hashMatch) return `matches ${e.hashMatch.list}/${e.hashMatch.entry}`;
  if (e.faces.length > 0) return `faces: ${e.faces.join(", ")}`;
  return i.labels.join(", ");
}
