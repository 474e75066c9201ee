// The v4 contract: zod schemas (types share their names), taxonomy, codes and helpers. Browser-safe.
export * from "./taxonomy";
export * from "./codes";
export * from "./common";
export * from "./request-rules";
export * from "./rtc";
export * from "./videostream";
export * from "./videostream-callbacks";
export * from "./audiostream";
export * from "./audiostream-callbacks";
export * from "./video";
export * from "./video-result";
export * from "./errors";
export * from "./openapi";
// Schema + type in common.ts win over the type-only names of the same meaning in taxonomy.ts.
export { AcceptLang, Lang, RiskLevel, RiskSource } from "./common";
