import crypto from "node:crypto";
import { sameSecret } from "../net/constant-time";
import { dataDirSecret } from "../service/access-keys";

/** How long a signed preview or clip link is valid; the playlist is re-signed at every reload. */
export const LINK_TTL_SEC = 2 * 3600;
const SIG_CHARS = 32;

/**
 * Signed, expiring links to a task's preview files (playlist, segments, clips) under /api/preview/<requestId>/.
 * The key is derived from the media-link secret the engine keeps in DATA_DIR (created at its start), so
 * every route handler bundle reads the same key and none has to create one.
 */
export class PreviewLinks {
  constructor(private readonly key: Buffer) {}

  private sign(requestId: string, name: string, exp: number): string {
    return crypto.createHmac("sha256", this.key).update(`${requestId}/${name}\n${exp}`).digest("base64url").slice(0, SIG_CHARS);
  }

  /** `name?exp=…&sig=…`, relative to the playlist (segments) or absolute under /api/preview (absolute: true). */
  link(requestId: string, name: string, o: { absolute?: boolean; now?: number; ttlSec?: number } = {}): string {
    const exp = Math.floor((o.now ?? Date.now()) / 1000) + (o.ttlSec ?? LINK_TTL_SEC);
    const query = `${name}?exp=${exp}&sig=${this.sign(requestId, name, exp)}`;
    return o.absolute ? `/api/preview/${requestId}/${query}` : query;
  }

  /** A valid, unexpired signature for exactly this task and file. */
  check(requestId: string, name: string, params: URLSearchParams, now = Date.now()): boolean {
    const exp = Number(params.get("exp"));
    const sig = params.get("sig") ?? "";
    if (!Number.isSafeInteger(exp) || exp * 1000 < now || sig.length !== SIG_CHARS) return false;
    return sameSecret(sig, this.sign(requestId, name, exp));
  }
}

const cache = new Map<string, Promise<PreviewLinks>>();

export function previewLinks(dataDir: string): Promise<PreviewLinks> {
  let links = cache.get(dataDir);
  if (!links) {
    links = dataDirSecret(dataDir, "media-url").then((secret) => new PreviewLinks(crypto.createHmac("sha256", secret).update("preview-links").digest()));
    cache.set(dataDir, links);
  }
  return links;
}
