import crypto from "node:crypto";

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256
 * of "<webhook-id>.<webhook-timestamp>.<body>">`. A secret is the HMAC key as given (UTF-8), or, with a
 * `whsec_` prefix, the base64-decoded rest.
 */

export const SIGNATURE_TOLERANCE_SEC = 5 * 60;

const WHSEC = "whsec_";

/** The HMAC key a configured secret stands for. */
export function secretKey(secret: string): Buffer {
  if (!secret) throw new Error("empty webhook signing secret");
  if (!secret.startsWith(WHSEC)) return Buffer.from(secret, "utf8");
  const rest = secret.slice(WHSEC.length);
  const key = Buffer.from(rest, "base64");
  if (key.length === 0 || key.toString("base64").replace(/=+$/, "") !== rest.replace(/=+$/, "")) throw new Error("a whsec_ signing secret must be followed by base64");
  return key;
}

/** A configured secret after checking it is usable (throws otherwise); null when unset or empty. */
export function checkedSecret(secret: string | undefined): string | null {
  if (!secret) return null;
  secretKey(secret);
  return secret;
}

/** The `v1,<base64>` signature of one message; body is the exact text (sent as UTF-8) or bytes. */
export function signWebhook(secret: string, id: string, timestampSec: number, body: string | Buffer): string {
  const mac = crypto.createHmac("sha256", secretKey(secret));
  mac.update(`${id}.${timestampSec}.`, "utf8");
  mac.update(body);
  return `v1,${mac.digest("base64")}`;
}

/** The three headers a signed callback carries. */
export function webhookHeaders(secret: string, id: string, timestampSec: number, body: string | Buffer): Record<string, string> {
  return { "webhook-id": id, "webhook-timestamp": String(timestampSec), "webhook-signature": signWebhook(secret, id, timestampSec, body) };
}

export interface HeaderSource {
  get(name: string): string | null;
}

export type VerifyResult = { ok: true; id: string; timestampSec: number } | { ok: false; error: string };

/**
 * Checks a received callback: id, timestamp within ±toleranceSec of now, and at least one of the
 * space-separated `v1,` signatures matching (compared in constant time). `body` must be the raw bytes received.
 */
export function verifyWebhook(secret: string, headers: HeaderSource, body: string | Buffer, o: { nowSec?: number; toleranceSec?: number } = {}): VerifyResult {
  const id = headers.get("webhook-id");
  const ts = headers.get("webhook-timestamp");
  const sig = headers.get("webhook-signature");
  if (!id || !ts || !sig) return { ok: false, error: "unsigned callback: webhook-id, webhook-timestamp and webhook-signature are required" };
  if (!/^\d{1,15}$/.test(ts.trim())) return { ok: false, error: "webhook-timestamp is not a Unix time in seconds" };
  const timestampSec = Number(ts.trim());
  const now = o.nowSec ?? Math.floor(Date.now() / 1000);
  const tolerance = o.toleranceSec ?? SIGNATURE_TOLERANCE_SEC;
  if (Math.abs(now - timestampSec) > tolerance) return { ok: false, error: `webhook-timestamp is outside the ${tolerance} s window` };
  const expected = Buffer.from(signWebhook(secret, id, timestampSec, body).slice(3), "base64");
  let match = false;
  for (const candidate of sig.split(" ")) {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    // every candidate is compared, so the time taken does not say which one matched
    if (given.length === expected.length && crypto.timingSafeEqual(given, expected)) match = true;
  }
  return match ? { ok: true, id, timestampSec } : { ok: false, error: "webhook-signature does not match" };
}

/**
 * `CALLBACK_SIGNING_SECRETS`: comma-separated `accessKey=secret` pairs (the secret is everything after the
 * first `=`, so base64 padding is fine; neither part may contain a comma). Throws on a malformed entry.
 */
export function parseSigningSecrets(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of (text ?? "").split(",").map((e) => e.trim()).filter(Boolean)) {
    const eq = entry.indexOf("=");
    const key = eq > 0 ? entry.slice(0, eq).trim() : "";
    const secret = eq > 0 ? entry.slice(eq + 1).trim() : "";
    if (!key || !secret) throw new Error("CALLBACK_SIGNING_SECRETS entries must look like accessKey=secret");
    secretKey(secret);
    out[key] = secret;
  }
  return out;
}
