import { Code, codeMessage } from "../../lib/contract/codes";
import { worstRiskLevel, type RiskLevel } from "../../lib/contract/taxonomy";
import type { FrameVerdict } from "../detect";
import type { SegmentVerdict } from "../detect/audio";
import { audioVerdictFields } from "./audio-verdict";
import type { AudioSegment } from "../ingest/audio";
import type { CapturedFrame } from "../ingest/frames";

type Level = RiskLevel;

export const worst = (levels: Level[]): Level => levels.reduce<Level>(worstRiskLevel, "PASS");

const TEXT_TYPES = new Set(["ADVERT", "IMGTEXTRISK"]);

/** One §3.6 frameDetail item. */
export function buildFrameItem(taskId: string, frame: CapturedFrame, v: FrameVerdict, imgUrl: string, similarity: number, imgTypes: string[]) {
  const auxInfo: Record<string, unknown> = { similarity };
  if (v.qrContent !== undefined) auxInfo.qrContent = v.qrContent;
  return {
    requestId: `${taskId}_v${frame.index}`,
    imgUrl,
    time: Math.round(frame.timeSec * 1000) / 1000,
    riskLevel: v.riskLevel,
    riskLabel1: v.riskLabel1,
    riskLabel2: v.riskLabel2,
    riskLabel3: v.riskLabel3,
    riskDescription: v.riskDescription,
    riskDetail: v.riskDetail,
    allLabels: v.allLabels,
    auxInfo,
    ...(imgTypes.some((t) => TEXT_TYPES.has(t)) && v.imgText !== undefined ? { imgText: v.imgText } : {}),
    businessLabels: v.businessLabels,
  };
}

/** One §3.6 audioDetail item (times relative to the file start, vendor spelling audioStarttime). */
export function buildAudioItem(taskId: string, seg: AudioSegment, audioUrl: string, v: SegmentVerdict) {
  return {
    requestId: `${taskId}_a${String(seg.index).padStart(4, "0")}`,
    audioUrl,
    audioStarttime: round3(seg.startSec),
    audioEndtime: round3(seg.endSec),
    ...audioVerdictFields(v),
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function buildFileResult(o: {
  requestId: string;
  btId: string;
  riskLevel: Level;
  frames: ReturnType<typeof buildFrameItem>[];
  audio: ReturnType<typeof buildAudioItem>[];
  returnAllImg: boolean;
  returnAllAudio: boolean;
  billingImgNum: number;
  billingAudioDuration: number;
  time: number;
  passThrough?: Record<string, unknown>;
  notAppliedTypes: string[];
}) {
  const frameDetail = o.returnAllImg ? o.frames : o.frames.filter((f) => f.riskLevel !== "PASS");
  const audioDetail = o.returnAllAudio ? o.audio : o.audio.filter((a) => a.riskLevel !== "PASS");
  const auxInfo: Record<string, unknown> = {
    frameCount: frameDetail.length,
    billingImgNum: o.billingImgNum,
    billingAudioDuration: o.billingAudioDuration,
    time: round3(o.time),
    // extension: requested types that no real detector covers yet (see GET /capabilities)
    notAppliedTypes: o.notAppliedTypes,
  };
  if (o.passThrough) auxInfo.passThrough = o.passThrough;
  return { code: Code.SUCCESS, message: codeMessage(Code.SUCCESS), requestId: o.requestId, btId: o.btId, riskLevel: o.riskLevel, auxInfo, frameDetail, audioDetail } as Record<string, unknown>;
}
