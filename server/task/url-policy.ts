import { checkUrl, UrlRefusedError } from "../ingest/url-guard";
import type { CheckedTarget } from "../net/pinned";
import type { EgressPolicy } from "../net/egress-proxy";
import type { EngineContext } from "./context";
import { invalid } from "./errors";

export const RECEIVER_PATH_PREFIX = "/api/receiver/";

/** Callback targets: public http(s) or ALLOW_NETWORKS, or this server's own receiver routes, or anything with ALLOW_PRIVATE_NETWORKS=1. */
export async function checkCallbackTarget(ctx: EngineContext, raw: string): Promise<CheckedTarget> {
  const u = new URL(raw);
  const own = ctx.ownOrigins.has(u.origin) && u.pathname.startsWith(RECEIVER_PATH_PREFIX);
  return checkUrl(raw, { protocols: ["http:", "https:"], allowPrivate: ctx.config.allowPrivateNetworks || own, allowNetworks: ctx.config.allowNetworks });
}

/** Media sources: only the given protocols, public addresses unless configured. */
export async function checkMediaSource(ctx: EngineContext, raw: string, protocols: string[]): Promise<void> {
  await checkUrl(raw, { protocols, ...mediaEgress(ctx) });
}

/** What ffmpeg may connect to while pulling (the playlist, its segments, redirects): public hosts, ALLOW_NETWORKS and this server's own ingest. */
export function mediaEgress(ctx: EngineContext): EgressPolicy {
  return { allowPrivate: ctx.config.allowPrivateNetworks, allowedOrigins: [...ctx.ownMediaOrigins], allowNetworks: ctx.config.allowNetworks };
}

/** Runs a URL check at submission time and turns a refusal into a 1902 naming the field. */
export async function requireAllowed(field: string, check: () => Promise<unknown>): Promise<void> {
  try {
    await check();
  } catch (err) {
    if (err instanceof UrlRefusedError) {
      // say how to allow it when the operator may: one network with ALLOW_NETWORKS, or all with ALLOW_PRIVATE_NETWORKS=1
      const hint = err.reason === "private-address" ? " (set ALLOW_NETWORKS=<cidr> on the server to allow that network, or ALLOW_PRIVATE_NETWORKS=1 to allow loopback and every private address)" : "";
      throw invalid(`${field} refused (${err.reason}): ${err.message}${hint}`);
    }
    if (err instanceof TypeError) throw invalid(`${field} is not a valid URL`);
    throw err;
  }
}
