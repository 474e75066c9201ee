"use client";

import { alertSummary, alertTitle, timelineHref } from "@/lib/alerts";
import type { StreamAlert } from "@/lib/alert-fold";

let audio: AudioContext | null = null;

/**
 * The tab's AudioContext, resumed. Browsers start it suspended until the user interacts with the page, so the
 * settings call this from a click and the alert center from the first pointer press.
 */
export function primeAudio(): AudioContext | null {
  if (typeof window === "undefined" || typeof window.AudioContext !== "function") return null;
  audio ??= new window.AudioContext();
  if (audio.state === "suspended") void audio.resume().catch(() => undefined);
  return audio;
}

/** Two short descending tones (no audio file to download). */
export function beep(): void {
  const ctx = primeAudio();
  if (!ctx) return;
  const start = ctx.currentTime + 0.01;
  [880, 660].forEach((freq, n) => {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    const t = start + n * 0.18;
    osc.type = "sine";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.16);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.17);
  });
}

export type DesktopPermission = NotificationPermission | "unsupported";

export function desktopPermission(): DesktopPermission {
  return typeof window !== "undefined" && "Notification" in window ? Notification.permission : "unsupported";
}

/** Asks the browser once (it remembers the answer); resolves to what it answered. */
export async function requestDesktopPermission(): Promise<DesktopPermission> {
  if (desktopPermission() === "unsupported") return "unsupported";
  if (Notification.permission !== "default") return Notification.permission;
  return Notification.requestPermission();
}

/** A desktop notification per stream alert (the stream as tag: the browser replaces rather than stacks); a click opens the timeline. */
export function notifyDesktop(entry: StreamAlert, open: (href: string) => void, showImage: boolean): void {
  if (desktopPermission() !== "granted") return;
  const i = entry.latest;
  const body = `${alertSummary(i)}${entry.openCount > 1 ? ` · ${entry.openCount} open incidents` : ""}`;
  try {
    // with wellness blur on, the frame stays out of the notification (the OS cannot blur it)
    const n = new Notification(alertTitle(i), { body, tag: entry.key, icon: showImage ? (i.peak.mediaUrl ?? undefined) : undefined });
    n.onclick = () => {
      window.focus();
      open(timelineHref(i));
      n.close();
    };
  } catch {
    // some browsers only allow notifications from a service worker: the toast and the sound still run
  }
}
