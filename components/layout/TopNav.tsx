"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
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
  { href: "/team", label: "Metrics", permission: "review:record" },
  { href: "/users", label: "Users", permission: "users:manage" },
  { href: "/audit", label: "Audit", permission: "audit:view" },
  { href: "/rules", label: "Rules", permission: "rules:edit" },
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

/**
 * Below lg the links, alerts and account sit behind a Menu button (a 390 px phone has no room for nine links);
 * from lg up they are one row as before.
 */
export default function TopNav() {
  const pathname = usePathname();
  const user = useUser();
  const [open, setOpen] = useState(false);
  if (!user) {
    return (
      <header className="border-b border-surface-line bg-surface-sunken/95">
        <div className="mx-auto flex h-11 max-w-7xl items-center px-4 text-sm font-semibold tracking-tight text-zinc-100">Moderation</div>
      </header>
    );
  }
  return (
    <header className="sticky top-0 z-20 border-b border-surface-line bg-surface-sunken/95 backdrop-blur">
      <div className="mx-auto flex min-h-11 max-w-7xl flex-wrap items-center gap-x-4 px-4 xl:gap-x-6">
        <Link href="/streams" className="flex h-11 items-center text-sm font-semibold tracking-tight text-zinc-100">
          Moderation
        </Link>
        <button
          type="button"
          aria-expanded={open}
          aria-controls="top-nav-panel"
          onClick={() => setOpen((o) => !o)}
          className="ml-auto rounded border border-surface-line px-2.5 py-1 text-xs text-zinc-200 hover:bg-white/5 lg:hidden"
        >
          {open ? "Close menu" : "Menu"}
        </button>
        <div id="top-nav-panel" className={`${open ? "flex" : "hidden"} w-full flex-col gap-2 pb-3 lg:flex lg:w-auto lg:flex-1 lg:flex-row lg:items-stretch lg:pb-0`}>
          <nav className="flex flex-col gap-1 lg:h-11 lg:flex-row lg:items-stretch" aria-label="Main">
            {LINKS.filter((link) => !link.permission || can(user.role, link.permission)).map((link) => {
              const active = pathname === link.href || pathname.startsWith(`${link.href}/`);
              return (
                <Link
                  key={link.href}
                  href={link.href}
                  onClick={() => setOpen(false)}
                  aria-current={active ? "page" : undefined}
                  className={`flex items-center border-l-2 px-3 py-1.5 text-sm lg:border-b-2 lg:border-l-0 lg:px-2 lg:py-0 xl:px-3 ${
                    active ? "border-sky-400 text-zinc-100" : "border-transparent text-zinc-400 hover:text-zinc-200"
                  }`}
                >
                  {link.label}
                </Link>
              );
            })}
          </nav>
          <div className="flex flex-wrap items-center gap-4 border-t border-surface-line pt-2 lg:ml-auto lg:border-t-0 lg:pt-0">
            {!user.mustChangePassword && <AlertSettingsButton />}
            <LiveIndicator />
            <UserMenu />
          </div>
        </div>
      </div>
    </header>
  );
}
