"use client";

import Link from "next/link";
import { useEffect, useRef, useState, useSyncExternalStore } from "react";
import { useMySettings, useMySettingsQuery, useSaveMySettings } from "@/components/settings/useMySettings";
import { Toggle } from "@/components/ui/form";
import type { AlertPrefs } from "@/lib/user-settings";
import AlertList from "./AlertList";
import { beep, desktopPermission, primeAudio, requestDesktopPermission, type DesktopPermission } from "./effects";
import { useAlertBook } from "./store";

const noSubscribe = () => () => undefined;

function BellIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
      <path d="M10 2a5 5 0 0 0-5 5v3.6L3.3 13.4A1 1 0 0 0 4.2 15h11.6a1 1 0 0 0 .9-1.6L15 10.6V7a5 5 0 0 0-5-5Zm0 17a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 10 19Z" />
    </svg>
  );
}

const PERMISSION_NOTE: Record<DesktopPermission, string | null> = {
  granted: null,
  default: "the browser asks for permission when you turn this on",
  denied: "blocked for this site in the browser's settings",
  unsupported: "this browser has no desktop notifications",
};

/** The top bar's bell: how many streams alert, a popover listing every stream alert (dismissed ones too) and the user's alert settings. */
export default function AlertSettingsButton() {
  const [open, setOpen] = useState(false);
  const settings = useMySettings().alerts;
  const save = useSaveMySettings();
  const loaded = useMySettingsQuery().data !== undefined;
  const book = useAlertBook();
  const box = useRef<HTMLDivElement>(null);
  // read on the client only: the server render has no Notification API
  const permission = useSyncExternalStore(noSubscribe, desktopPermission, () => "default" as DesktopPermission);
  const [, rerender] = useState(0);

  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    const esc = (e: KeyboardEvent) => e.key === "Escape" && setOpen(false);
    document.addEventListener("pointerdown", away);
    document.addEventListener("keydown", esc);
    return () => {
      document.removeEventListener("pointerdown", away);
      document.removeEventListener("keydown", esc);
    };
  }, [open]);

  const set = (patch: Partial<AlertPrefs>) => save.mutate({ alerts: patch });
  const onSound = (on: boolean) => {
    if (on) primeAudio(); // inside the click: the browser lets the page make sound from now on
    set({ sound: on });
  };
  const onDesktop = async (on: boolean) => {
    if (!on) return set({ desktop: false });
    const answer = await requestDesktopPermission();
    rerender((n) => n + 1);
    set({ desktop: answer === "granted" });
  };

  const count = book.entries.filter((e) => !e.dismissed).length;
  return (
    <div ref={box} className="relative">
      <button
        type="button"
        data-testid="alert-settings-button"
        data-count={count}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-label={`Alerts: ${count} streams alerting, ${book.entries.length} listed; settings`}
        onClick={() => setOpen((o) => !o)}
        className={`relative flex items-center rounded p-1 ${count > 0 ? "text-risk-reject" : "text-zinc-400 hover:text-zinc-200"}`}
      >
        <BellIcon />
        {count > 0 && <span className="absolute -right-1 -top-1 rounded-full bg-risk-reject px-1 text-[9px] font-bold leading-3 text-black">{count}</span>}
      </button>
      {open && (
        <div role="dialog" aria-label="Alert settings" data-testid="alert-settings" className="absolute right-0 top-8 z-50 w-[22rem] max-w-[calc(100vw-1.5rem)] space-y-2.5 rounded-md border border-surface-line bg-surface-raised p-3 shadow-xl shadow-black/50 max-lg:left-0 max-lg:right-auto">
          <AlertList entries={book.entries} onNavigate={() => setOpen(false)} />
          {/* disabled until the server's settings are here: a click never acts on the defaults */}
          <fieldset disabled={!loaded} className="space-y-2.5 border-t border-surface-line pt-2.5 disabled:opacity-60">
            <p className="text-[11px] text-zinc-400">One alert per live stream, updated in place. Kept with your account, on every browser.</p>
            <Toggle label="Alerts off" checked={settings.off} onChange={(v) => set({ off: v })} />
            <Toggle label="Show a toast" checked={settings.toast} onChange={(v) => set({ toast: v })} />
            <div className="flex items-center justify-between gap-2">
              <Toggle label="Play a sound" checked={settings.sound} onChange={onSound} />
              <button type="button" onClick={() => beep()} className="text-[11px] text-sky-300 hover:underline">test</button>
            </div>
            <div>
              <Toggle label="Desktop notification" checked={settings.desktop && permission === "granted"} onChange={(v) => void onDesktop(v)} />
              {PERMISSION_NOTE[permission] && <p data-testid="alert-desktop-note" className="mt-0.5 pl-5 text-[10px] text-zinc-500">{PERMISSION_NOTE[permission]}</p>}
            </div>
            <Link href="/account#alerts" onClick={() => setOpen(false)} className="block text-[11px] text-sky-300 hover:underline">
              Levels and categories…
            </Link>
          </fieldset>
        </div>
      )}
    </div>
  );
}
