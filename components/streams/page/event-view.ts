// Read the contract callback bodies stored in StreamEvents (docs/api.md §3.2–3.5) into what the timeline shows.
import type { RiskLevel, StreamEvent } from "@/lib/dashboard-api";
import { asRiskLevel } from "@/components/ui/risk";
import { isNotChecked } from "@/lib/stream-state";
import { imgTimeMs } from "@/components/preview/marks";
import type { AllLabel, AudioRiskDetail, BusinessLabel, FrameDetail, ImgRiskDetail, RiskCore } from "@/components/files/result/types";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

function riskCore(d: Obj): RiskCore {
  return {
    riskLevel: asRiskLevel(d.riskLevel),
    riskLabel1: str(d.riskLabel1) ?? "",
    riskLabel2: str(d.riskLabel2) ?? "",
    riskLabel3: str(d.riskLabel3) ?? "",
    riskDescription: str(d.riskDescription) ?? "",
  };
}

/** "YYYY-MM-DD HH:mm:ss(.SSS)" → "HH:mm:ss"; anything else as it is. */
export function clockOf(stamp: string | undefined): string | undefined {
  if (stamp === undefined) return undefined;
  const m = /\d{2}:\d{2}:\d{2}/.exec(stamp);
  return m ? m[0] : stamp;
}

function secondsOfDay(clock: string | undefined): number | undefined {
  const m = clock === undefined ? null : /^(\d{2}):(\d{2}):(\d{2})$/.exec(clock);
  return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : undefined;
}

export function localClock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString(undefined, { hour12: false });
}

/**
 * When a result's media was captured (ms): its stamp (imgTime / audioStartTime, the server's local time) read
 * with the server's UTC offset, so the offset on the stream, the clock shown (the browser's local time) and the
 * risk strip all tell the same moment; without either, the time the callback was received.
 */
function capturedMs(stamp: unknown, utcOffsetMin: number | undefined, receivedAt: string): number {
  const at = utcOffsetMin === undefined ? null : imgTimeMs(stamp, utcOffsetMin);
  return at ?? Date.parse(receivedAt);
}
const sinceStart = (ms: number, startedAt: string) => {
  const s = (ms - Date.parse(startedAt)) / 1000;
  return Number.isFinite(s) ? Math.max(0, s) : 0;
};

/** A callback that came back without a result (code ≠ 1100). */
export interface FailedView {
  kind: "failed";
  id: number;
  code: number | undefined;
  message: string;
  at: string;
}

function failed(e: StreamEvent): FailedView {
  return { kind: "failed", id: e.id, code: num(e.body.code), message: str(e.body.message) ?? "no result", at: localClock(e.receivedAt) };
}

export interface FrameView {
  kind: "frame";
  id: number;
  /** null: the detectors did not check this frame, so it has no level (never PASS) */
  level: RiskLevel | null;
  /** the frame in the files-page shape, so its lightbox can show it; `time` = s since the stream started */
  detail: FrameDetail;
  clock: string;
  /** false: captured but not checked (detectType 2: detectStep, or detection fell behind) */
  checked: boolean;
  dedup: boolean;
}

/** §3.2 frame result; its capture time less `startedAt` is its offset on the stream. */
export function frameView(e: StreamEvent, startedAt: string, utcOffsetMin?: number): FrameView | FailedView {
  const d = obj(e.body.frameDetail);
  if (d === undefined) return failed(e);
  const aux = obj(d.auxInfo) ?? {};
  const at = capturedMs(aux.imgTime, utcOffsetMin, e.receivedAt);
  const detail: FrameDetail = {
    ...riskCore(d),
    requestId: str(e.body.requestId) ?? `event-${e.id}`,
    imgUrl: str(d.imgUrl) ?? "",
    time: sinceStart(at, startedAt),
    riskDetail: obj(d.riskDetail) as ImgRiskDetail | undefined,
    allLabels: Array.isArray(d.allLabels) ? (d.allLabels as AllLabel<ImgRiskDetail>[]) : undefined,
    businessLabels: Array.isArray(d.businessLabels) ? (d.businessLabels as BusinessLabel[]) : undefined,
    auxInfo: {},
  };
  const checked = !isNotChecked(d);
  return {
    kind: "frame",
    id: e.id,
    level: checked ? detail.riskLevel : null,
    detail,
    clock: utcOffsetMin === undefined ? (clockOf(str(aux.imgTime)) ?? localClock(e.receivedAt)) : localClock(new Date(at).toISOString()),
    checked,
    dedup: aux.similarityDedup === 1,
  };
}

export interface AudioView {
  kind: "audio";
  id: number;
  /** null: not checked (its PASS would say nothing) */
  level: RiskLevel | null;
  /** false: cut and called back but not checked (detectType 2: the stream ended first, a backlog, no detector for any type asked) */
  checked: boolean;
  core: RiskCore;
  /** segment number from the per-segment requestId (`<task>_a<n>` or `<task>_<n>`) */
  seq: string | undefined;
  start: string | undefined;
  end: string | undefined;
  /** vadCode: 0 no voice activity (silence, a tone, music), 1 speech, undefined when not reported */
  vad: 0 | 1 | undefined;
  transcript: string;
  /** `content` when it differs from the transcript (previous + current segment on a REJECT) */
  context: string | undefined;
  riskDetail: AudioRiskDetail | undefined;
  audioUrl: string | undefined;
  at: string;
  /** s since the stream started at which the segment began (its audioStartTime; without the server's offset, its receipt minus its length) */
  t: number;
  /** the receive time as a clock, for the offset + clock display */
  clock: string;
}

/** §3.3 video-stream audio segment (contentType 2) or §3.4 audio-stream segment. */
export function audioView(e: StreamEvent, startedAt: string, utcOffsetMin?: number): AudioView | FailedView {
  const d = obj(e.body.audioDetail);
  if (d === undefined) return failed(e);
  const aux = obj(d.auxInfo) ?? {};
  const riskDetail = obj(d.riskDetail) as AudioRiskDetail | undefined;
  const transcript = riskDetail?.audioText || str(d.audioText) || str(d.content) || "";
  const content = str(d.content);
  const vad = d.vadCode === 0 || d.vadCode === 1 ? d.vadCode : undefined;
  const startStamp = str(aux.audioStartTime) ?? str(aux.audio_starttime);
  const endStamp = str(aux.audioEndTime) ?? str(aux.audio_endtime);
  const startMs = utcOffsetMin === undefined ? null : imgTimeMs(startStamp, utcOffsetMin);
  const endMs = utcOffsetMin === undefined ? null : imgTimeMs(endStamp, utcOffsetMin);
  // the browser's local clock when the server's offset is known, else the stamps' own clock
  const start = startMs !== null ? localClock(new Date(startMs).toISOString()) : clockOf(startStamp);
  const end = endMs !== null ? localClock(new Date(endMs).toISOString()) : clockOf(endStamp);
  const [a, b] = [secondsOfDay(clockOf(startStamp)), secondsOfDay(clockOf(endStamp))];
  const length = a !== undefined && b !== undefined ? (b - a + 86_400) % 86_400 : 10;
  const since = startMs !== null ? sinceStart(startMs, startedAt) + length : (Date.parse(e.receivedAt) - Date.parse(startedAt)) / 1000;
  const checked = !isNotChecked(d);
  return {
    kind: "audio",
    id: e.id,
    level: checked ? asRiskLevel(d.riskLevel) : null,
    checked,
    core: riskCore(d),
    seq: /_a?(\d+)$/.exec(str(e.body.requestId) ?? "")?.[1],
    start,
    end,
    vad,
    transcript,
    context: content && content !== transcript ? content : undefined,
    riskDetail,
    audioUrl: str(d.audioUrl),
    at: localClock(e.receivedAt),
    t: Number.isFinite(since) ? Math.max(0, since - length) : 0,
    clock: start ?? localClock(e.receivedAt),
  };
}

export interface EndView {
  id: number;
  /** 1 image review ended, 2 audio review ended, undefined for an audio stream */
  contentType: number | undefined;
  errorCode: number | undefined;
  pullStreamSuccess: boolean | undefined;
  streamTime: number | undefined;
  level: RiskLevel | undefined;
  at: string;
}

/** §3.5 stream-end (statCode 1); `auxinfo` is the vendor's alternate spelling. */
export function endView(e: StreamEvent): EndView {
  const aux = obj(e.body.auxInfo) ?? obj(e.body.auxinfo) ?? {};
  const level = e.body.riskLevel;
  return {
    id: e.id,
    contentType: num(e.body.contentType),
    errorCode: num(aux.errorCode),
    pullStreamSuccess: typeof e.body.pullStreamSuccess === "boolean" ? e.body.pullStreamSuccess : undefined,
    streamTime: num(aux.streamTime),
    level: level === undefined ? undefined : asRiskLevel(level),
    at: localClock(e.receivedAt),
  };
}

/** Split a timeline into lanes, newest first. */
export function lanes(events: readonly StreamEvent[], startedAt: string, utcOffsetMin?: number) {
  const frames: Array<FrameView | FailedView> = [];
  const audio: Array<AudioView | FailedView> = [];
  const ends: EndView[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.kind === "frame") frames.push(frameView(e, startedAt, utcOffsetMin));
    else if (e.kind === "audio") audio.push(audioView(e, startedAt, utcOffsetMin));
    else ends.push(endView(e));
  }
  return { frames, audio, ends };
}

/** Checked frames by level, and the frames nobody checked (never counted as PASS). */
export function frameCounts(frames: Iterable<FrameView | FailedView>): { levels: Record<RiskLevel, number>; notChecked: number } {
  const levels: Record<RiskLevel, number> = { PASS: 0, REVIEW: 0, REJECT: 0 };
  let notChecked = 0;
  for (const f of frames) {
    if (f.kind !== "frame") continue;
    if (f.level === null) notChecked += 1;
    else levels[f.level] += 1;
  }
  return { levels, notChecked };
}
