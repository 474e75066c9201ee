import { checkUrl, UrlRefusedError } from "../ingest/url-guard";
import type { EngineContext } from "./context";
import { invalid } from "./errors";

export const RECEIVER_PATH_PREFIX = "/api/receiver/";

/** Callback targets: public http(s), or this server's own receiver routes, or anything with ALLOW_PRIVATE_NETWORKS=1. */
export async function checkCallbackTarget(ctx: EngineContext, raw: string): Promise<void> {
  const u = new URL(raw);
  const own = ctx.ownOrigins.has(u.origin) && u.pathname.startsWith(RECEIVER_PATH_PREFIX);
  await checkUrl(raw, { protocols: ["http:", "https:"], allowPrivate: ctx.config.allowPrivateNetworks || own });
}

/** Media sources: only the given protocols, public addresses unless configured. */
export async function checkMediaSource(ctx: EngineContext, raw: string, protocols: string[]): Promise<void> {
  const u = new URL(raw);
  const own = ctx.ownMediaOrigins.has(`${u.protocol}//${u.host}`);
  await checkUrl(raw, { protocols, allowPrivate: ctx.config.allowPrivateNetworks || own });
}

/** Runs a URL check at submission time and turns a refusal into a 1902 naming the field. */
export async function requireAllowed(field: string, check: () => Promise<void>): Promise<void> {
  try {
    await check();
  } catch (err) {
    if (err instanceof UrlRefusedError) throw invalid(`${field} refused (${err.reason}): ${err.message}`);
    if (err instanceof TypeError) throw invalid(`${field} is not a valid URL`);
    throw err;
  }
}
