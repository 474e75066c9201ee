"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useSocketConnected } from "@/components/hooks/useSocket";
import { apiJson } from "@/components/api/http";
import { useUser } from "@/components/auth/UserContext";
import { can, type Permission } from "@/lib/roles";
import AlertSettingsButton from "@/components/alerts/AlertSettingsButton";

/** Links shown to roles holding `permission` (default: everyone signed in). */
const LINKS: Array<{ href: string; label: string; permission?: Permission }> = [
  { href: "/streams", label: "Streams" },
  { href: "/files", label: "Files" },
  { href: "/review", label: "Review" },
  { href: "/lists", label: "Lists" },
  { href: "/policy", label: "Policy" },
  { href: "/capabilities", label: "Capabilities" },
  { href: "/status", label: "Status" },
  { href: "/users", label: "Users", permission: "users:manage" },
  { href: "/audit", label: "Audit", permission: "audit:view" },
];

function UserMenu() {
  const user = useUser();
  if (!user) return null;
  async function signOut() {
    await apiJson("/api/auth/signout", { method: "POST" }).catch(() => undefined);
    window.location.assign("/signin");
  }
  return (
    <span className="flex items-center gap-3 text-xs text-zinc-400" data-testid="user-menu">
      <Link href="/account" className="hover:text-zinc-200">
        <span className="text-zinc-200" data-testid="user-name">{user.username}</span> · <span data-testid="user-role">{user.role}</span>
      </Link>
      <button onClick={() => void signOut()} className="text-sky-300 hover:underline">
        Sign out
      </button>
    </span>
  );
}

function LiveIndicator() {
  const connected = useSocketConnected();
  return (
    <span
      data-testid="live-indicator"
      data-connected={connected}
      title={connected ? "Live updates connected" : "Live updates disconnected; lists refresh on reload"}
      className="flex items-center gap-1.5 text-[11px] text-zinc-400"
    >
      <span className={`h-2 w-2 rounded-full ${connected ? "bg-risk-pass" : "bg-zinc-600"}`} />
      {connected ? "live" : "offline"}
    </span>
  );
}

export default function TopNav() {
  const pathname = usePathname();
  const user = useUser();
  if (!user) {
    return (
      <header className="border-b border-surface-line bg-surface-sunken/95">
        <div className="mx-auto flex h-11 max-w-7xl items-center px-4 text-sm font-semibold tracking-tight text-zinc-100">Moderation</div>
      </header>
    );
  }
  return (
    <header className="sticky top-0 z-20 border-b border-surface-line bg-surface-sunken/95 backdrop-blur">
      <div className="mx-auto flex h-11 max-w-7xl items-center gap-6 px-4">
        <Link href="/streams" className="text-sm font-semibold tracking-tight text-zinc-100">
          Moderation
        </Link>
        <nav className="flex h-full items-stretch gap-1" aria-label="Main">
          {LINKS.filter((link) => !link.permission || can(user.role, link.permission)).map((link) => {
            const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
            return (
              <Link
                key={link.href}
                href={link.href}
                aria-current={active ? "page" : undefined}
                className={`flex items-center border-b-2 px-3 text-sm ${
                  active ? "border-sky-400 text-zinc-100" : "border-transparent text-zinc-400 hover:text-zinc-200"
                }`}
              >
                {link.label}
              </Link>
            );
          })}
        </nav>
        <div className="ml-auto flex items-center gap-4">
          {!user.mustChangePassword && <AlertSettingsButton />}
          <LiveIndicator />
          <UserMenu />
        </div>
      </div>
    </header>
  );
}
