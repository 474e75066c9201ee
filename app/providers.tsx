"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { UserProvider } from "@/components/auth/UserContext";
import type { SessionUser } from "@/lib/roles";

export default function Providers({ children, user }: { children: ReactNode; user: SessionUser | null }) {
  // One client per browser tab; created lazily so server renders never share a cache.
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: 1 },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <UserProvider user={user}>{children}</UserProvider>
    </QueryClientProvider>
  );
}
