// Cross-field request rules shared by the submit endpoints (docs/api.md §2.1, §2.3, §2.5, §8).
import type { z } from "zod";
import { DATA_MAX_BYTES, jsonByteLength } from "./common";

/** A type field counts as given when it names at least one type. */
export function hasTypes(s: string | undefined): boolean {
  return s !== undefined && s !== "";
}

/** "At least one of a / b": the issue sits on the first field and names both. */
export function requireOneOf(v: Record<string, unknown>, a: string, b: string, ctx: z.RefinementCtx): void {
  const given = (k: string) => typeof v[k] === "string" && hasTypes(v[k] as string);
  if (!given(a) && !given(b)) {
    ctx.addIssue({ code: "custom", path: [a], message: `at least one of ${a} / ${b} is required` });
  }
}

/** Audio is moderated unless audioType is NONE (or absent) and no audioBusinessType is set. */
export function audioRequested(v: { audioType?: string; audioBusinessType?: string }): boolean {
  return (hasTypes(v.audioType) && v.audioType !== "NONE") || hasTypes(v.audioBusinessType);
}

/** `data` ≤ 1 MB serialised. */
export function checkDataSize(data: unknown, ctx: z.RefinementCtx): void {
  if (jsonByteLength(data) > DATA_MAX_BYTES) {
    ctx.addIssue({ code: "custom", path: ["data"], message: "must be at most 1 MB" });
  }
}
