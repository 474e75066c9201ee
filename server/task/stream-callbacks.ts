import { Code, codeMessage } from "../../lib/contract/codes";
import type { FrameVerdict } from "../detect";
import type { SegmentVerdict } from "../detect/audio";
import { audioVerdictFields } from "./audio-verdict";

type Level = "PASS" | "REVIEW" | "REJECT";

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** `YYYY-MM-DD HH:mm:ss(.SSS)` in the server's local time zone (TZ), as the vendor's samples show. */
export function wallTime(d: Date, millis = false): string {
  const s = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  return millis ? `${s}.${pad(d.getMilliseconds(), 3)}` : s;
}

const success = () => ({ code: Code.SUCCESS, message: codeMessage(Code.SUCCESS) });
const withPassThrough = (passThrough: Record<string, unknown> | undefined) => (passThrough ? { auxInfo: { passThrough } } : {});

/** §3.2 frame result (contentType 1 → imgCallback). */
export function frameResult(o: { taskId: string; index: number; imgUrl: string; verdict: FrameVerdict; detected: boolean; stepped: boolean; capturedAt: Date; begin: number; finish: number; room?: string; btId?: string; passThrough?: Record<string, unknown>; reusedFrom?: number }) {
  const v = o.verdict;
  const auxInfo: Record<string, unknown> = { beginProcessTime: o.begin, finishProcessTime: o.finish, imgTime: wallTime(o.capturedAt, true) };
  if (o.room) auxInfo.room = o.room;
  if (o.stepped) auxInfo.detectType = o.detected ? 1 : 2;
  if (v.notApplied.length) auxInfo.notAppliedTypes = v.notApplied;
  // checked without running the detectors: its pixels are those of this earlier frame, whose verdict it carries
  if (o.reusedFrom !== undefined) auxInfo.unchangedFrom = `${o.taskId}_v${o.reusedFrom}`;
  return {
    ...success(),
    requestId: `${o.taskId}_v${o.index}`,
    contentType: 1,
    statCode: 0,
    ...(o.btId ? { btId: o.btId } : {}),
    frameDetail: {
      imgUrl: o.imgUrl,
      riskLevel: v.riskLevel,
      riskLabel1: v.riskLabel1,
      riskLabel2: v.riskLabel2,
      riskLabel3: v.riskLabel3,
      riskDescription: v.riskDescription,
      allLabels: v.allLabels,
      riskDetail: v.riskDetail,
      auxInfo,
      ...(v.imgText !== undefined ? { imgText: v.imgText } : {}),
      businessLabels: v.businessLabels,
    },
    ...withPassThrough(o.passThrough),
  };
}

interface SegmentInput {
  taskId: string;
  index: number;
  audioUrl: string;
  verdict: SegmentVerdict;
  preAudioUrl?: string;
  startedAt: Date;
  endedAt: Date;
  begin: number;
  finish: number;
  room?: string;
  /** the video stream request's data.btId (vendor demos send it): echoed in frame and segment results */
  btId?: string;
  passThrough?: Record<string, unknown>;
  /** false: the segment was not checked (its stream ended before detection finished, or its backlog overflowed): auxInfo.detectType 2 */
  detected?: boolean;
}

function segmentAux(s: SegmentInput) {
  const aux: Record<string, unknown> = { audioStartTime: wallTime(s.startedAt), audioEndTime: wallTime(s.endedAt), beginProcessTime: s.begin, finishProcessTime: s.finish };
  if (s.room) aux.room = s.room;
  if (s.passThrough) aux.passThrough = s.passThrough;
  if (s.verdict.notApplied.length) aux.notAppliedTypes = s.verdict.notApplied;
  // not checked: its stream ended before detection finished or its backlog overflowed, or none of the types asked
  // for has a detector here (every one in notAppliedTypes): its PASS says nothing about the audio
  if (s.detected === false || (s.verdict.applied.length === 0 && s.verdict.notApplied.length > 0)) aux.detectType = 2;
  return aux;
}

function segmentDetail(s: SegmentInput) {
  const { audioText, ...fields } = audioVerdictFields(s.verdict);
  return { audioUrl: s.audioUrl, ...fields, ...(audioText !== undefined ? { audioText } : {}), ...(s.preAudioUrl ? { preAudioUrl: s.preAudioUrl } : {}), auxInfo: segmentAux(s) };
}

/** §3.3 audio-segment result of a video stream (contentType 2 → audioCallback); transcript in content, audioText and riskDetail.audioText. */
export function videoStreamAudioResult(s: SegmentInput) {
  const detail = segmentDetail(s);
  return { ...success(), requestId: `${s.taskId}_a${s.index}`, contentType: 2, statCode: 0, ...(s.btId ? { btId: s.btId } : {}), audioDetail: { ...detail, ...(detail.audioText !== undefined ? { content: detail.audioText } : {}) } };
}

/** §3.4 audio-stream segment result (→ callback), requestId `<task>_<n>`. */
export function audioStreamSegmentResult(s: SegmentInput & { btId: string; requestParams: Record<string, unknown> }) {
  const tags = s.verdict.audioTags;
  return {
    requestId: `${s.taskId}_${s.index}`,
    btId: s.btId,
    ...success(),
    statCode: 0,
    requestParams: s.requestParams,
    audioDetail: { ...segmentDetail(s), ...(tags && Object.keys(tags).length ? { audioTags: tags } : {}) },
  };
}

/** §3.5 stream-end bodies; errorCode only when a pull failure ended the task. */
export function videoStreamEnd(o: { taskId: string; contentType: 1 | 2; worst: Level; gotFrame: boolean; streamTimeSec: number; errorCode?: number; requestParams: Record<string, unknown> }) {
  const auxInfo: Record<string, unknown> = { streamTime: Math.round(o.streamTimeSec) };
  if (o.errorCode) auxInfo.errorCode = o.errorCode;
  const base = { ...success(), requestId: o.taskId, statCode: 1, contentType: o.contentType, riskLevel: o.worst, pullStreamSuccess: o.gotFrame, auxInfo };
  return o.contentType === 1 ? { ...base, detail: { requestParams: o.requestParams } } : { ...base, requestParams: o.requestParams };
}

export function audioStreamEnd(o: { taskId: string; btId: string; streamTimeSec: number; errorCode?: number; requestParams: Record<string, unknown> }) {
  const auxInfo: Record<string, unknown> = { streamTime: Math.round(o.streamTimeSec) };
  if (o.errorCode) auxInfo.errorCode = o.errorCode;
  return { requestId: o.taskId, btId: o.btId, ...success(), statCode: 1, requestParams: o.requestParams, auxInfo };
}
