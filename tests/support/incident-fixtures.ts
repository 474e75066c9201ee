// Incidents as the dashboard lists them, for tests of what is made of them (alerts, folding): no store involved.
import type { Incident } from "../../lib/incidents";

/**
 * An open REJECT "ad" incident of stream r1 ("Lobby") made of one frame hit at `at` (ms since the epoch), its peak
 * a QR code; `over` replaces any field.
 */
export function streamIncident(over: Partial<Incident> & { id: string; at: number }): Incident {
  const iso = new Date(over.at).toISOString();
  const { at: _at, ...rest } = over;
  return {
    source: { kind: "stream", requestId: "r1", ref: "r1", title: "Lobby", url: "rtmp://x/live/a", href: "/streams/r1" },
    media: "frame",
    label: "ad",
    labelName: "Advertising",
    labels: ["Advertising: QR code"],
    riskLevel: "REJECT",
    timeBase: "epoch",
    start: over.at / 1000,
    end: over.at / 1000,
    hits: 1,
    peak: { itemId: `f-${over.id}`, t: over.at / 1000, endT: over.at / 1000, score: 1, riskLevel: "REJECT", labels: ["Advertising: QR code"], mediaUrl: "/media/a.jpg", evidence: { qr: ["https://spam.example"], words: [], faces: [] } },
    status: "open",
    assignee: null,
    lastDecision: null,
    createdAt: iso,
    updatedAt: iso,
    ...rest,
  };
}
