// Verifies a signed callback (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature:
// v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`) with Web Crypto: runs in Node ≥ 20, Deno, Bun,
// edge runtimes and browsers, no dependency. The secret is the HMAC key as given (UTF-8), or after a
// `whsec_` prefix the base64-decoded rest — the same rule as the service (server/callback/signature.ts).

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** accepted clock difference, seconds (default 300) */
  toleranceSec?: number;
  /** "now" in Unix seconds (tests) */
  nowSec?: number;
}

export type VerifyResult = { ok: true; id: string; timestampSec: number } | { ok: false; reason: string };

const header = (h: WebhookHeaders, name: string): string | undefined => {
  if (h instanceof Headers) return h.get(name) ?? undefined;
  const v = h[name] ?? h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

function keyBytes(secret: string): Uint8Array<ArrayBuffer> {
  if (!secret) throw new Error("empty webhook signing secret");
  if (!secret.startsWith("whsec_")) return new TextEncoder().encode(secret);
  const bin = atob(secret.slice(6));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function b64(bytes: ArrayBuffer): string {
  let s = "";
  for (const b of new Uint8Array(bytes)) s += String.fromCharCode(b);
  return btoa(s);
}

/** Constant-time comparison of two strings of base64 (length leaks nothing: every v1 signature is 44 chars). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Checks one callback against `secret`: pass the raw body exactly as received (string or bytes, before any JSON
 * parsing). Refuses a missing header, a timestamp outside the tolerance, or no matching `v1,` signature.
 * Drop duplicates by the returned `id` (it is the same on every retry of one delivery).
 */
export async function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: string | Uint8Array, o: VerifyOptions = {}): Promise<VerifyResult> {
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const sigs = header(headers, "webhook-signature");
  if (!id || !ts || !sigs) return { ok: false, reason: "unsigned: webhook-id, webhook-timestamp and webhook-signature are required" };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: "webhook-timestamp is not Unix seconds" };
  const now = o.nowSec ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(ts)) > (o.toleranceSec ?? 300)) return { ok: false, reason: "webhook-timestamp outside the accepted window" };
  const key = await crypto.subtle.importKey("raw", keyBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const body = typeof rawBody === "string" ? new TextEncoder().encode(rawBody) : rawBody;
  const signed = new Uint8Array([...new TextEncoder().encode(`${id}.${ts}.`), ...body]);
  const expected = b64(await crypto.subtle.sign("HMAC", key, signed));
  const match = sigs.split(" ").some((s) => {
    const [version, value] = s.split(",");
    return version === "v1" && value !== undefined && sameText(value, expected);
  });
  return match ? { ok: true, id, timestampSec: Number(ts) } : { ok: false, reason: "signature does not match" };
}
