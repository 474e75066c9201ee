"use client";

import { createContext, useContext, type ReactNode } from "react";
import { can, type Permission, type SessionUser } from "@/lib/roles";
import { setSocketPermitted, socketMayConnect } from "@/components/hooks/useSocket";

const UserContext = createContext<SessionUser | null>(null);

/** The signed-in user, read by the server from the session (app/layout.tsx) and handed down. */
export function UserProvider({ user, children }: { user: SessionUser | null; children: ReactNode }) {
  // before any child asks for the socket: none is opened while the one-time password is pending (or signed out)
  if (typeof window !== "undefined") setSocketPermitted(socketMayConnect(user));
  return <UserContext.Provider value={user}>{children}</UserContext.Provider>;
}

export function useUser(): SessionUser | null {
  return useContext(UserContext);
}

/** Whether the signed-in user's role allows an action (the server checks again; this only hides controls). */
export function useCan(permission: Permission): boolean {
  return can(useUser()?.role, permission);
}
