// Response codes and their fixed messages (docs/api.md §1.2–§1.4, §4). Clients branch on `code` only.

export const Code = {
  SUCCESS: 1100,
  PROCESSING: 1101,
  QPS_LIMIT: 1901,
  INVALID_PARAMS: 1902,
  SERVICE_FAILURE: 1903,
  /** videostream: concurrent stream (route) limit; audiostream: stream pull failed */
  STREAM_LIMIT_OR_PULL_FAILED: 1904,
  CONTENT_UNRECOGNISED: 1905,
  INSUFFICIENT_BALANCE: 9100,
  NO_PERMISSION: 9101,
} as const;
export type Code = (typeof Code)[keyof typeof Code];
export const CODES: readonly Code[] = Object.values(Code);

export type MessageLang = "zh" | "en";
/** Product whose meaning of 1904 (and 1901 wording) applies. */
export type Product = "videostream" | "audiostream" | "video";

const MESSAGES: Record<Code, { en: string; zh: string }> = {
  1100: { en: "Success", zh: "成功" },
  1101: { en: "Processing", zh: "处理中" },
  1901: { en: "QPS limit exceeded", zh: "QPS超限" },
  1902: { en: "Invalid parameters", zh: "参数不合法" },
  1903: { en: "Service failure", zh: "服务失败" },
  1904: { en: "Stream route limit exceeded", zh: "超出路数限制" },
  1905: { en: "Unrecognized content", zh: "内容不规范" },
  9100: { en: "Insufficient balance", zh: "余额不足" },
  9101: { en: "No permission to operate", zh: "无权限操作" },
};

/** Product-specific overrides: audio streams use 1904 for pull failures and 1901 also for stream count. */
const AUDIOSTREAM_MESSAGES: Partial<Record<Code, { en: string; zh: string }>> = {
  1901: { en: "QPS limit exceeded, stream count exceeded", zh: "QPS超限或路数超限" },
  1904: { en: "Stream pulling failed", zh: "拉流失败" },
};

export function isCode(n: unknown): n is Code {
  return typeof n === "number" && (CODES as readonly number[]).includes(n);
}

/** Fixed human text for a code; English by default ("Success", "Processing", …). */
export function codeMessage(code: Code, lang: MessageLang = "en", product?: Product): string {
  const entry = (product === "audiostream" ? AUDIOSTREAM_MESSAGES[code] : undefined) ?? MESSAGES[code];
  return entry[lang];
}

/** §4 stream-end `auxInfo.errorCode`: why pulling gave up. Present only when a pull failure ended the task. */
export const StreamEndErrorCode = {
  UNREACHABLE: 3001,
  INVALID_DATA: 3002,
  NOT_FOUND: 3003,
  NO_AUDIO: 3004,
  TOKEN_INVALID: 3005,
} as const;
export type StreamEndErrorCode = (typeof StreamEndErrorCode)[keyof typeof StreamEndErrorCode];
export const STREAM_END_ERROR_CODES: readonly StreamEndErrorCode[] = Object.values(StreamEndErrorCode);

export const STREAM_END_ERROR_MEANING: Readonly<Record<StreamEndErrorCode, { en: string; zh: string }>> = {
  3001: { en: "stream address not reachable", zh: "流地址无法访问" },
  3002: { en: "stream data invalid or undecodable", zh: "流数据无效或无法解码" },
  3003: { en: "stream does not exist", zh: "流不存在" },
  3004: { en: "stream carries no audio data", zh: "流中没有音频数据" },
  3005: { en: "pull token invalid or expired", zh: "拉流token无效或已过期" },
};

/** §1.4 duplicate stream: `detail.errorCode` on a second submission of a running stream. */
export const DUPLICATE_STREAM_ERROR_CODE = 1001 as const;
