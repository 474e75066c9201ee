"use client";

import { createContext, useContext, type ReactNode } from "react";
import { can, type Permission, type SessionUser } from "@/lib/roles";

const UserContext = createContext<SessionUser | null>(null);

/** The signed-in user, read by the server from the session (app/layout.tsx) and handed down. */
export function UserProvider({ user, children }: { user: SessionUser | null; children: ReactNode }) {
  return <UserContext.Provider value={user}>{children}</UserContext.Provider>;
}

export function useUser(): SessionUser | null {
  return useContext(UserContext);
}

/** Whether the signed-in user's role allows an action (the server checks again; this only hides controls). */
export function useCan(permission: Permission): boolean {
  return can(useUser()?.role, permission);
}
