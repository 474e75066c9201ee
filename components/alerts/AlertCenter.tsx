"use client";

import { usePathname, useRouter } from "next/navigation";
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { createPortal } from "react-dom";
import { useUser } from "@/components/auth/UserContext";
import { useMySettings } from "@/components/settings/useMySettings";
import RiskBadge from "@/components/ui/RiskBadge";
import type { StreamAlert } from "@/lib/alert-fold";
import AlertToast from "./AlertToast";
import { useDockSlot } from "./DockSlot";
import { beep, notifyDesktop, primeAudio } from "./effects";
import { dismissAll, getAlertPrefs, setAlertPrefs, useAlertBook } from "./store";
import { useAlertFeed } from "./useAlertFeed";

/** Stream alerts drawn in the dock at once; the rest are in the bell. */
const DOCK_MAX = 4;
const PHONE = "(max-width: 639px)";

function usePhone(): boolean {
  return useSyncExternalStore(
    (l) => {
      const m = window.matchMedia(PHONE);
      m.addEventListener("change", l);
      return () => m.removeEventListener("change", l);
    },
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
}

type Mode = "dock" | "sheet" | "inline";

const SHELL: Record<Mode, string> = {
  // desktop: bottom right, one column
  dock: "fixed bottom-4 right-4 z-40 w-[23rem] max-w-[calc(100vw-2rem)] rounded-md border",
  // phone: a bottom sheet, a slim bar until opened
  sheet: "fixed inset-x-0 bottom-0 z-40 rounded-t-lg border-t",
  // a page's own slot (Review): in the flow, above the queue
  inline: "mb-3 rounded-md border",
};
const LIST: Record<Mode, string> = {
  dock: "max-h-[min(60vh,34rem)] space-y-2 overflow-y-auto p-2",
  sheet: "max-h-[55vh] space-y-2 overflow-y-auto p-2",
  inline: "grid grid-cols-1 gap-2 p-2 md:grid-cols-2 xl:grid-cols-3",
};

/**
 * The live alerts: one entry per stream (lib/alert-fold.ts), docked and collapsible. Bottom right on desktop, a
 * bottom sheet collapsed to a slim bar on phones, and in the Review page's own slot there (collapsed at first), so
 * the decision buttons are never covered. A spacer as tall as the dock ends the page, so its last controls can
 * always be scrolled clear of it.
 */
function Dock({ entries }: { entries: readonly StreamAlert[] }) {
  const phone = usePhone();
  const slot = useDockSlot();
  const pathname = usePathname();
  const mode: Mode = slot ? "inline" : phone ? "sheet" : "dock";
  const [choice, setChoice] = useState<{ mode: Mode; collapsed: boolean } | null>(null);
  const collapsed = choice?.mode === mode ? choice.collapsed : mode !== "dock";
  const box = useRef<HTMLElement>(null);
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || mode === "inline") return setHeight(0);
    const ro = new ResizeObserver(() => setHeight(el.offsetHeight));
    ro.observe(el);
    return () => ro.disconnect();
  }, [mode, pathname]);

  const shown = entries.slice(0, DOCK_MAX);
  const worst = entries.some((e) => e.worst === "REJECT") ? "REJECT" : "REVIEW";
  const openSum = entries.reduce((n, e) => n + e.openCount, 0);
  const section = (
    <section ref={box} aria-label="Live alerts" data-testid="alert-stack" data-mode={mode} data-collapsed={collapsed} className={`${SHELL[mode]} border-surface-line bg-surface-sunken/95 shadow-xl shadow-black/50 backdrop-blur`}>
      <div className="flex items-center gap-2 px-2.5 py-1.5">
        <button
          type="button"
          data-testid="alert-dock-toggle"
          aria-expanded={!collapsed}
          onClick={() => setChoice({ mode, collapsed: !collapsed })}
          className="flex min-w-0 flex-1 items-center gap-2 text-left text-xs text-zinc-200"
        >
          <span className="shrink-0">
            <RiskBadge level={worst} size="sm" />
          </span>
          <span className="min-w-0 truncate">
            <span data-testid="alert-dock-count">{entries.length}</span> live {entries.length === 1 ? "alert" : "alerts"} · {openSum} open {openSum === 1 ? "incident" : "incidents"}
          </span>
          <span aria-hidden className="ml-auto shrink-0 whitespace-nowrap text-zinc-500">{collapsed ? "▴ show" : "▾ hide"}</span>
        </button>
        <button type="button" data-testid="alert-dismiss-all" onClick={dismissAll} className="shrink-0 rounded px-1.5 text-[11px] text-zinc-400 hover:text-zinc-100">
          Dismiss all
        </button>
      </div>
      {!collapsed && (
        <div className={`border-t border-surface-line ${LIST[mode]}`}>
          {shown.map((a) => <AlertToast key={a.key} alert={a} />)}
          {entries.length > shown.length && <p className="px-1 text-[11px] text-zinc-500">{entries.length - shown.length} more in the bell</p>}
        </div>
      )}
    </section>
  );
  if (slot) return createPortal(section, slot);
  return (
    <>
      <div aria-hidden data-testid="alert-dock-spacer" style={{ height: height + (mode === "dock" ? 16 : 0) }} />
      {section}
    </>
  );
}

function Alerts() {
  const router = useRouter();
  const settings = useMySettings();
  const prefs = settings.alerts;
  const book = useAlertBook();
  // the socket handler reads the preferences at once, not at the next render
  setAlertPrefs(prefs);

  useAlertFeed((entry) => {
    const now = getAlertPrefs();
    if (now.off) return;
    if (now.sound) beep();
    if (now.desktop) notifyDesktop(entry, (href) => router.push(href), !settings.wellness.blur);
  });

  // browsers keep audio suspended until the user interacts with the page: resume it on the first press
  useEffect(() => {
    if (!prefs.sound || prefs.off) return;
    const wake = () => primeAudio();
    window.addEventListener("pointerdown", wake, { once: true });
    return () => window.removeEventListener("pointerdown", wake);
  }, [prefs.sound, prefs.off]);

  const visible = book.entries.filter((e) => !e.dismissed);
  if (prefs.off || !prefs.toast || visible.length === 0) return null;
  return <Dock entries={visible} />;
}

/** Mounted once in the app layout, for signed-in users whose live updates are allowed. */
export default function AlertCenter() {
  const user = useUser();
  if (!user || user.mustChangePassword) return null;
  return <Alerts />;
}
