import { IDENTITY_HEADERS, isRole } from "@/lib/roles";
import type { Caller } from "@/server/queues";
import { caller } from "../incidents/parse";

/** The caller and their role, as the gate signed them in (guard() has checked the session). */
export function who(req: Request): Caller {
  const role = req.headers.get(IDENTITY_HEADERS.role);
  return { username: caller(req), role: isRole(role) ? role : null };
}
