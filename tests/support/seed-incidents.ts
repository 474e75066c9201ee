// Incidents for the review-queue tests, made the way the dashboard makes them: a source (a stream's dashboard row and
// its task, so appId/eventId/tokenId are real task facts) and contract frame callbacks (CONTRACT §3.2) fed to
// server/incidents one by one. Each callback is a new incident (its frame lies far from the others).
import crypto from "node:crypto";
import type { Db } from "../../server/store/db";
import { dashboardStreams, tasks } from "../../server/store/schema";

export interface SeedSource {
  title?: string;
  appId?: string;
  eventId?: string;
  tokenId?: string;
}

/** A running stream as the dashboard and the embedded service record it; returns its requestId. */
export async function seedStreamSource(db: Db, s: SeedSource = {}): Promise<string> {
  const requestId = crypto.randomBytes(16).toString("hex");
  const now = new Date();
  await db.insert(dashboardStreams).values({ requestId, kind: "video", url: "rtmp://127.0.0.1/live/seeded", title: s.title ?? "Seeded stream", serviceBaseUrl: "", receiverToken: crypto.randomBytes(16).toString("hex"), status: "running", startedAt: now });
  await db.insert(tasks).values({
    requestId,
    kind: "videostream",
    keyId: "seeded",
    appId: s.appId ?? "default",
    eventId: s.eventId ?? "VIDEOSTREAM",
    status: "running",
    request: { appId: s.appId ?? "default", eventId: s.eventId ?? "VIDEOSTREAM", data: { url: "rtmp://127.0.0.1/live/seeded", tokenId: s.tokenId ?? "dashboard" } },
    progress: { framesDone: 0, framesTotal: 0, segmentsDone: 0, segmentsTotal: 0 },
    baseUrl: "",
    createdAt: now,
    updatedAt: now,
    expiresAt: new Date(now.getTime() + 3600_000),
  });
  return requestId;
}

export interface SeedHit {
  level: "REVIEW" | "REJECT";
  label1: string;
  label2?: string;
  probability?: number;
  /** keyword lists the frame's OCR text matched */
  lists?: string[];
}

const pad = (n: number) => String(n).padStart(2, "0");
const stamp = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/** One frame callback of `requestId` captured at `at`, carrying `hit`. */
export function frameCallback(requestId: string, n: number, at: Date, hit: SeedHit): Record<string, unknown> {
  const riskDetail = hit.lists?.length ? { ocrText: { text: "buy now", matchedLists: hit.lists.map((name) => ({ name, words: [{ word: "buy", entry: "buy" }] })) } } : {};
  return {
    code: 1100,
    message: "Success",
    requestId: `${requestId}_${n}_${at.getTime()}`,
    contentType: 1,
    frameDetail: { riskLevel: hit.level, riskLabel1: hit.label1, riskLabel2: hit.label2 ?? "", riskLabel3: "", probability: hit.probability ?? 0.9, riskDetail, imgUrl: "", auxInfo: { imgTime: stamp(at), detectType: 1 } },
  };
}

type Feed = (input: { kind: "stream"; requestId: string; callbackId?: number; receivedAt: Date; body: Record<string, unknown> }) => Promise<void>;

/** Feeds one callback per hit, 10 minutes apart in capture time (each its own incident), oldest first. */
export async function feedHits(feed: Feed, requestId: string, hits: SeedHit[], start = new Date(Date.now() - hits.length * 600_000 - 60_000)): Promise<void> {
  for (const [n, h] of hits.entries()) {
    const at = new Date(start.getTime() + n * 600_000);
    await feed({ kind: "stream", requestId, receivedAt: at, body: frameCallback(requestId, n + 1, at, h) });
  }
}
