import { createHmac, timingSafeEqual } from "node:crypto";

/** Session cookie value: `<sessionId>.<HMAC-SHA256(secret, sessionId)>`, both base64url. */
export function signSessionId(secret: Buffer, id: string): string {
  return `${id}.${createHmac("sha256", secret).update(id).digest("base64url")}`;
}

export function unsignSessionId(secret: Buffer, value: string): string | null {
  const dot = value.lastIndexOf(".");
  if (dot <= 0) return null;
  const id = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), "base64url");
  const want = createHmac("sha256", secret).update(id).digest();
  return given.length === want.length && timingSafeEqual(given, want) ? id : null;
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    if (out.has(name)) continue;
    try {
      out.set(name, decodeURIComponent(part.slice(eq + 1).trim()));
    } catch {
      // a malformed cookie is ignored, not an error
    }
  }
  return out;
}

export interface CookieOptions {
  maxAgeSec: number;
  httpOnly: boolean;
  secure: boolean;
}

export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  return [`${name}=${encodeURIComponent(value)}`, "Path=/", `Max-Age=${Math.max(0, Math.floor(o.maxAgeSec))}`, "SameSite=Lax", o.httpOnly ? "HttpOnly" : "", o.secure ? "Secure" : ""].filter(Boolean).join("; ");
}

