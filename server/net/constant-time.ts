import crypto from "node:crypto";

const digest = (s: string) => crypto.createHash("sha256").update(s, "utf8").digest();

/**
 * Whether two secrets (signatures, tokens) are the same text, in time that depends on neither: both are hashed
 * first, so inputs of any length or encoding compare without throwing (node's timingSafeEqual throws on
 * buffers of different byte lengths, and a 32-character string may be 33 bytes).
 */
export function sameSecret(given: string, expected: string): boolean {
  return crypto.timingSafeEqual(digest(given), digest(expected));
}
