// What a live task was asked for: its request as stored, its initial state, and the detector types it names.
import { parseTypeList, IMG_TYPES, IMG_BUSINESS_TYPES, AUDIO_TYPES, AUDIO_BUSINESS_TYPES, AUDIOSTREAM_TYPES, AUDIOSTREAM_BUSINESS_TYPES } from "../../lib/contract/taxonomy";
import type { StreamState } from "../store/schema";
import type { StreamProduct } from "./pull-retries";

export interface StreamRequest {
  imgType?: string;
  imgBusinessType?: string;
  audioType?: string;
  audioBusinessType?: string;
  type?: string;
  businessType?: string;
  imgCallback?: string;
  audioCallback?: string;
  callback?: string;
  acceptLang?: "zh" | "en";
  data: Record<string, unknown> & { btId?: string; room?: string; extra?: { passThrough?: Record<string, unknown> } };
}

export const initialStreamState = (): StreamState => ({ nextFrameIndex: 1, nextSegmentIndex: 1, worstRisk: "PASS", gotFrame: false, streamTimeSec: 0 });

export function langOf(req: StreamRequest): "zh" | "en" {
  return req.acceptLang ?? "zh";
}

export interface StreamTypes {
  img: string[];
  imgBusiness: string[];
  audioRisk: string[];
  audioBusiness: string[];
  /** risk and business types together: none → a video stream's audio is not detected */
  audio: string[];
}

export function streamTypesOf(product: StreamProduct, r: StreamRequest): StreamTypes {
  const video = product === "videostream";
  const img = video ? [...parseTypeList(r.imgType ?? "", IMG_TYPES).types] : [];
  const imgBusiness = video ? [...parseTypeList(r.imgBusinessType ?? "", IMG_BUSINESS_TYPES).types] : [];
  const audioRisk = video ? parseTypeList(r.audioType ?? "", AUDIO_TYPES).types.filter((t) => t !== "NONE") : [...parseTypeList(r.type ?? "", AUDIOSTREAM_TYPES).types];
  const audioBusiness = [...parseTypeList((video ? r.audioBusinessType : r.businessType) ?? "", video ? AUDIO_BUSINESS_TYPES : AUDIOSTREAM_BUSINESS_TYPES).types];
  return { img, imgBusiness, audioRisk, audioBusiness, audio: [...audioRisk, ...audioBusiness] };
}
