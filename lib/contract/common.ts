// Shared building blocks of the v4 contract (docs/api.md §1, §2, §3.1). Browser-safe: zod only.
// Decision: int fields accept JSON integers only (no numeric strings); only detectFrequency floors fractions.
import { z } from "zod";
import { ACCEPT_LANGS, GENDERS, LANGS, RISK_LEVELS, RISK_SOURCES, parseTypeList } from "./taxonomy";

// ---------- helpers ----------

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Copy an object renaming alternate spellings to canonical ones (canonical wins if both are present). */
export function renameAliasKeys(v: unknown, aliases: Readonly<Record<string, string>>): unknown {
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = { ...v };
  for (const [alt, canonical] of Object.entries(aliases)) {
    if (alt in out) {
      if (!(canonical in out)) out[canonical] = out[alt];
      delete out[alt];
    }
  }
  return out;
}

/** Accept alternate key spellings on input (§7), emit the canonical ones. */
export function withAliases<T extends z.ZodType>(aliases: Readonly<Record<string, string>>, schema: T) {
  return z.preprocess((v) => renameAliasKeys(v, aliases), schema);
}

const utf8 = new TextEncoder();
/** UTF-8 size of the JSON serialisation (§1.1 `data` ≤ 1 MB). */
export function jsonByteLength(v: unknown): number {
  return utf8.encode(JSON.stringify(v) ?? "").length;
}
export const DATA_MAX_BYTES = 1024 * 1024;

/** Integer in [min, max]. */
export const intRange = (min: number, max: number) => z.int().min(min).max(max);

/** A 0/1 switch (returnAllImg, returnFinishInfo, …). */
export const Flag = z.literal([0, 1], { error: "must be 0 or 1" });

// ---------- scalars ----------

export const AccessKey = z.string().min(1).max(20).describe("credential issued to the client");
export const AppId = z.string().min(1).max(64);
export const EventId = z.string().min(1).max(64);
/** End-user account id; optional everywhere (§8 demos omit it). */
export const TokenId = z.string().max(64);
/** Task id as returned by the submit endpoints. */
export const TaskRequestId = z.string().min(1).max(32);
/** requestId inside callbacks: `<task>_<suffix>`, not validated as hex (samples contain `…`). */
export const CallbackRequestId = z.string().max(256);
export const AcceptLang = z.enum(ACCEPT_LANGS);
export const Lang = z.enum(LANGS);
export const Gender = z.enum(GENDERS);
export const Level = intRange(0, 4);
export const DeviceId = z.string().max(128);
export const Ip = z.string().max(64);
export const ReceiveTokenId = z.string().max(64).regex(/^[A-Za-z0-9_-]*$/, "only letters, digits, _ and - allowed");
export const Room = z.string().max(64);
/** 13-digit millisecond timestamp (beyond int32). */
export const TimestampMs = z.int().min(0);
export const Probability = z.number().min(0).max(1);
export const RiskLevel = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof RiskLevel>;
export const RiskSource = z.literal(RISK_SOURCES);
export type RiskSource = z.infer<typeof RiskSource>;

/** Callback URL: http/https only. */
export const httpUrl = (max: number) =>
  z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(max);
export const CallbackUrl = httpUrl(1024);
/** Stream address: rtmp, rtmps, http, https (HLS/FLV over http). */
export const StreamUrl = z
  .url({ protocol: /^(rtmps?|https?)$/, error: "must be an rtmp, rtmps, http or https URL" })
  .max(600);
/** Video file address: http/https. */
export const FileUrl = httpUrl(600);

/** Capture interval in s: 1–60; fractions floored and values < 1 raised to 1 (§2.1). */
export const DetectFrequency = z
  .number()
  .lt(61, "must be between 1 and 60")
  .transform((n) => Math.max(1, Math.floor(n)));
export const AudioDetectStep = intRange(1, 36);

/** Client object echoed untouched; serialised form ≤1024 characters. */
export const PassThrough = z
  .record(z.string(), z.unknown())
  .refine((v) => JSON.stringify(v).length <= 1024, "must serialise to at most 1024 characters");
export type PassThrough = z.infer<typeof PassThrough>;
/** `data.extra`: only passThrough is defined; other keys kept for the requestParams echo. */
export const Extra = z.looseObject({ passThrough: PassThrough.optional() });

/**
 * A `_`-joined label list validated against `allowed` (aliases applied, deduped), emitted canonical.
 * Decision: unknown names are rejected (1902 naming the bad value), never silently dropped.
 */
export function typeList(allowed: readonly string[], what: string) {
  return z
    .string()
    .max(1024)
    .transform((s, ctx) => {
      const { types, unknown } = parseTypeList(s, allowed);
      if (unknown.length > 0) {
        ctx.addIssue({ code: "custom", message: `unknown ${what} ${unknown.map((u) => `"${u}"`).join(", ")}` });
        return z.NEVER;
      }
      // NONE only means "no audio" on its own; mixed with real types it is dropped.
      const cleaned = types.length > 1 ? types.filter((t) => t !== "NONE") : types;
      return cleaned.join("_");
    })
    .describe(`${what}: \`_\`-joined list; legacy names POLITICS/POLITICAL/PORN/AD/ABUSE accepted`);
}

// ---------- envelope ----------

export const Envelope = z.object({
  code: z.int(),
  message: z.string(),
  requestId: z.string(),
});
export type Envelope = z.infer<typeof Envelope>;

/** §1.4 duplicate stream detail; `errorcode` accepted on input. */
export const DuplicateDetail = withAliases(
  { errorcode: "errorCode" },
  z.object({ errorCode: z.int(), dupRequestId: z.string() }),
);
export type DuplicateDetail = z.infer<typeof DuplicateDetail>;

/** Codes a result body can carry besides 1100/1101. */
export const ERROR_CODES = [1901, 1902, 1903, 1904, 1905, 9100, 9101] as const;
export const ErrorCode = z.literal(ERROR_CODES);

// ---------- risk objects (§3.1) ----------

export const RiskCore = z.object({
  riskLevel: RiskLevel,
  riskLabel1: z.string(),
  riskLabel2: z.string(),
  riskLabel3: z.string(),
  riskDescription: z.string(),
});
export type RiskCore = z.infer<typeof RiskCore>;

const Location = z.array(z.number()).describe("[x1, y1, x2, y2]");
export const Face = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  location: Location.optional(),
  probability: Probability.optional(),
  face_ratio: Probability.optional(),
});
export const Person = z.object({
  id: z.string().optional(),
  location: Location.optional(),
  probability: Probability.optional(),
  person_ratio: Probability.optional(),
});
export const DetectedObject = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  location: Location.optional(),
  probability: Probability.optional(),
  qrContent: z.string().optional(),
});
export const MatchedList = z.object({
  name: z.string().optional(),
  words: z.array(z.object({ word: z.string().optional(), position: z.array(z.int()).optional() })).optional(),
});
export const RiskSegment = z.object({ segment: z.string().optional(), position: z.array(z.int()).optional() });
export const OcrText = z.object({
  text: z.string(),
  matchedLists: z.array(MatchedList).optional(),
  riskSegments: z.array(RiskSegment).optional(),
});

/** Faces / persons / objects found in a frame (≤10 each). */
const visualShape = {
  faces: z.array(Face).max(10).optional(),
  face_num: z.int().min(0).optional(),
  persons: z.array(Person).max(10).optional(),
  person_num: z.int().min(0).optional(),
  objects: z.array(DetectedObject).optional(),
};

export const ImgRiskDetail = z.object({ riskSource: RiskSource, ...visualShape, ocrText: OcrText.optional() });
export type ImgRiskDetail = z.infer<typeof ImgRiskDetail>;

export const AudioRiskDetail = z.object({
  riskSource: RiskSource,
  audioText: z.string().optional(),
  matchedLists: z.array(MatchedList).optional(),
  riskSegments: z.array(RiskSegment).optional(),
});
export type AudioRiskDetail = z.infer<typeof AudioRiskDetail>;

/** Every label hit; riskLevel/probability are absent in some vendor samples, so optional. */
const allLabelShape = {
  riskLevel: RiskLevel.optional(),
  riskLabel1: z.string(),
  riskLabel2: z.string(),
  riskLabel3: z.string(),
  riskDescription: z.string(),
  probability: Probability.optional(),
};
export const ImgAllLabel = z.object({ ...allLabelShape, riskDetail: ImgRiskDetail.optional() });
export type ImgAllLabel = z.infer<typeof ImgAllLabel>;
export const AudioAllLabel = z.object({ ...allLabelShape, riskDetail: AudioRiskDetail.optional() });
export type AudioAllLabel = z.infer<typeof AudioAllLabel>;

/** Either detail shape (all fields optional but riskSource): for code that handles labels generically. */
export const RiskDetail = ImgRiskDetail.extend(AudioRiskDetail.shape);
export type RiskDetail = z.infer<typeof RiskDetail>;
export const AllLabel = z.object({ ...allLabelShape, riskDetail: RiskDetail.optional() });
export type AllLabel = z.infer<typeof AllLabel>;

const businessLabelShape = {
  businessLabel1: z.string(),
  businessLabel2: z.string(),
  businessLabel3: z.string(),
  businessDescription: z.string(),
  probability: Probability,
  confidenceLevel: intRange(0, 2).optional(),
};
export const ImgBusinessLabel = z.object({ ...businessLabelShape, businessDetail: z.object(visualShape).optional() });
export type ImgBusinessLabel = z.infer<typeof ImgBusinessLabel>;
export const AudioBusinessLabel = z.object({ ...businessLabelShape, businessDetail: AudioRiskDetail.partial().optional() });
export type AudioBusinessLabel = z.infer<typeof AudioBusinessLabel>;
export const BusinessLabel = z.object({ ...businessLabelShape, businessDetail: RiskDetail.partial().optional() });
export type BusinessLabel = z.infer<typeof BusinessLabel>;

export const TokenLabel = z.object({
  label1: z.string().optional(),
  label2: z.string().optional(),
  label3: z.string().optional(),
  description: z.string().optional(),
  timestamp: TimestampMs.optional(),
});
export type TokenLabel = z.infer<typeof TokenLabel>;
export const tokenLabelsShape = {
  tokenProfileLabels: z.array(TokenLabel).optional(),
  tokenRiskLabels: z.array(TokenLabel).optional(),
};

/** Echo of the request `data` in callbacks (kept as sent). */
export const RequestParams = z.record(z.string(), z.unknown());
export type RequestParams = z.infer<typeof RequestParams>;
