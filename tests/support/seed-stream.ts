// A long stream's history written straight into a dashboard store (before its server starts): the bodies are the
// contract's frame and audio-segment callbacks (contract §3.2/§3.3) the receivers store, so the pages read exactly
// what they read after a real 3-hour stream. Used by tests/e2e/long-stream.spec.ts and tests/bench/timeline-scroll.ts.
import crypto from "node:crypto";
import { openStore } from "../../server/store/db";
import { dashboardStreams, receivedCallbacks } from "../../server/store/schema";

export interface SeedPlan {
  /** frames at one per `cadenceSec`, newest last */
  frames: number;
  /** 10 s audio segments */
  segments: number;
  cadenceSec?: number;
  title?: string;
}

/** Where the seeded stream's risky items are, so a test can look for them. */
export interface SeededStream {
  requestId: string;
  startedAt: Date;
  /** s since the start of each REJECT frame / REVIEW frame / not-checked frame / REJECT segment */
  rejectFrames: number[];
  reviewFrames: number[];
  notChecked: number[];
  rejectSegments: number[];
  events: number;
}

const pad = (n: number) => String(n).padStart(2, "0");
/** The vendor's "YYYY-MM-DD HH:mm:ss" stamps in the service's own way: its local time without a zone (stream-callbacks.ts wallTime). */
const stamp = (d: Date, millis = false) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${millis ? `.${String(d.getMilliseconds()).padStart(3, "0")}` : ""}`;

const PASS = { riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: "正常" };
const AD_QR = { riskLevel: "REJECT", riskLabel1: "ad", riskLabel2: "qrcode", riskLabel3: "", riskDescription: "广告:二维码" };
const SEXY = { riskLevel: "REVIEW", riskLabel1: "porn", riskLabel2: "sexy", riskLabel3: "", riskDescription: "色情:性感" };
const SPOKEN_AD = { riskLevel: "REJECT", riskLabel1: "ad", riskLabel2: "", riskLabel3: "", riskDescription: "广告" };

/** Every frame `i` with i % 97 === 40 is a REJECT, i % 131 === 7 a REVIEW, i % 53 === 11 not checked; segment j % 61 === 20 a REJECT. */
export function seedPlanItems(plan: SeedPlan) {
  const cadence = plan.cadenceSec ?? 3;
  const frames = Array.from({ length: plan.frames }, (_, i) => ({ t: i * cadence, kind: i % 97 === 40 ? "reject" : i % 131 === 7 ? "review" : i % 53 === 11 ? "unchecked" : "pass" }));
  const segments = Array.from({ length: plan.segments }, (_, j) => ({ t: j * 10, kind: j % 61 === 20 ? "reject" : j % 5 === 0 ? "speech" : "nospeech" }));
  return { frames, segments };
}

/** Writes one ended stream with `plan`'s history into the store of `dataDir` (opened and closed here). */
export async function seedLongStream(dataDir: string, plan: SeedPlan): Promise<SeededStream> {
  const { frames, segments } = seedPlanItems(plan);
  const requestId = crypto.randomBytes(16).toString("hex");
  const duration = Math.max(frames.at(-1)?.t ?? 0, (segments.at(-1)?.t ?? 0) + 10) + 5;
  const startedAt = new Date(Date.now() - duration * 1000);
  const at = (t: number) => new Date(startedAt.getTime() + t * 1000);
  const rows: Array<typeof receivedCallbacks.$inferInsert> = [];
  for (const [n, f] of frames.entries()) {
    const core = f.kind === "reject" ? AD_QR : f.kind === "review" ? SEXY : PASS;
    const auxInfo = { imgTime: stamp(at(f.t), true), detectType: f.kind === "unchecked" ? 2 : 1 };
    rows.push({ deliveryId: `seed-f${n}`, kind: "frame", requestId, receivedAt: at(f.t + 0.5), body: { code: 1100, message: "Success", requestId: `${requestId}_${n + 1}`, contentType: 1, frameDetail: { ...core, imgUrl: "", auxInfo } } });
  }
  for (const [n, s] of segments.entries()) {
    const core = s.kind === "reject" ? SPOKEN_AD : PASS;
    const text = s.kind === "reject" ? "buy cheap followers now visit our website" : s.kind === "speech" ? "and that is the weather for today" : "";
    const auxInfo = { audioStartTime: stamp(at(s.t)), audioEndTime: stamp(at(s.t + 10)) };
    rows.push({ deliveryId: `seed-a${n}`, kind: "audio", requestId, receivedAt: at(s.t + 10.5), body: { code: 1100, message: "Success", requestId: `${requestId}_a${n + 1}`, contentType: 2, audioDetail: { ...core, vadCode: s.kind === "nospeech" ? 0 : 1, audioText: text, content: text, audioUrl: "", auxInfo } } });
  }
  rows.sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime());

  const store = await openStore({ dataDir });
  try {
    const checked = frames.filter((f) => f.kind !== "unchecked").length;
    await store.db.insert(dashboardStreams).values({
      requestId,
      kind: "video",
      url: "rtmp://127.0.0.1/live/seeded-long-stream",
      title: plan.title ?? "Seeded 3-hour stream",
      serviceBaseUrl: "",
      receiverToken: crypto.randomBytes(16).toString("hex"),
      status: "ended",
      currentRisk: "PASS",
      worstRisk: "REJECT",
      lastResultAt: at(duration - 5),
      startedAt,
      endedAt: at(duration),
      frames: frames.length,
      segments: segments.length,
      framesChecked: checked,
      framesNotChecked: frames.length - checked,
    });
    for (let i = 0; i < rows.length; i += 1000) await store.db.insert(receivedCallbacks).values(rows.slice(i, i + 1000));
  } finally {
    await store.close();
  }
  const times = (list: Array<{ t: number; kind: string }>, kind: string) => list.filter((x) => x.kind === kind).map((x) => x.t);
  return { requestId, startedAt, rejectFrames: times(frames, "reject"), reviewFrames: times(frames, "review"), notChecked: times(frames, "unchecked"), rejectSegments: times(segments, "reject"), events: rows.length };
}
