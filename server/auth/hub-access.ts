import type http from "node:http";
import { can, SESSION_COOKIE } from "../../lib/roles";
import type { HubIdentity, HubOptions } from "../hub";
import { parseCookies } from "./cookies";
import { sameOrigin, type GateOptions } from "./gate";
import type { Auth } from "./index";

/**
 * Who may hold a live-update connection: a same-site caller whose session cookie names a standing session of a
 * role that may view, with no one-time password pending. The identity carries the session's end, so the hub cuts
 * the connection then; `liveSessions` lets it re-check sessions that ended where it did not hear.
 */
export function hubAccess(auth: Auth, gate: Pick<GateOptions, "publicBaseUrl">): { authorize: (req: http.IncomingMessage) => Promise<HubIdentity | null> } & Required<Pick<HubOptions, "liveSessions">> {
  return {
    async authorize(req) {
      if (!sameOrigin(req, gate)) return null;
      const session = await auth.session(parseCookies(req.headers.cookie).get(SESSION_COOKIE));
      if (!session || session.user.mustChangePassword || !can(session.user.role, "view")) return null;
      return { sessionId: session.id, userId: session.user.id, expiresAt: session.expiresAt.getTime() };
    },
    liveSessions: (ids) => auth.liveSessions(ids),
  };
}
