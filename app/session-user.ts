import { headers } from "next/headers";
import { IDENTITY_HEADERS, isRole, type SessionUser } from "@/lib/roles";

/** The user the server's gate signed in for this request (it strips client copies of these headers). */
export async function sessionUser(): Promise<SessionUser | null> {
  const h = await headers();
  const id = h.get(IDENTITY_HEADERS.id);
  const role = h.get(IDENTITY_HEADERS.role);
  if (!id || !isRole(role)) return null;
  return { id, username: h.get(IDENTITY_HEADERS.username) ?? "", role, mustChangePassword: h.get(IDENTITY_HEADERS.mustChange) === "1" };
}
