// Runs one cached frame file through the real detect pool, keeping the NSFW scores every frame set contributes.
import { readFile } from "node:fs/promises";
import { POLICY, type DetectPool, type FrameVerdict } from "../../server/detect/index";

/** EROTIC result of one frame known to hold nothing sexual (the only NSFW ground truth available offline). */
export interface NsfwObservation {
  source: string;
  scores: Record<string, number>;
  flagged: boolean;
}

// EROTIC labels (porn / sexy, see server/detect/policy.ts); QR codes share riskSource 1002 but carry objects
const NSFW_LABEL1 = new Set(Object.values(POLICY.nsfw.classes).flatMap((c) => [c.reviewLabels[0], c.rejectLabels[0]]));
const isNsfwLabel = (l: FrameVerdict["allLabels"][number]) => l.riskDetail.riskSource === 1002 && !l.riskDetail.objects && NSFW_LABEL1.has(l.riskLabel1);

export const nsfwLog: NsfwObservation[] = [];

/**
 * Detects `file` with `imgTypes` plus EROTIC (cheap next to OCR), logging the NSFW outcome under `source`; the
 * frames of every set are neutral, so they double as NSFW negatives.
 */
export async function detectFile(pool: DetectPool, file: string, imgTypes: readonly string[], source: string): Promise<FrameVerdict> {
  const jpeg = new Uint8Array(await readFile(file));
  const v = await pool.detectFrame({ jpeg, imgTypes: [...imgTypes, "EROTIC"], imgBusinessTypes: [], lang: "en" });
  const scores = v.scores?.nsfw;
  if (scores) nsfwLog.push({ source, scores, flagged: v.allLabels.some(isNsfwLabel) });
  return v;
}
