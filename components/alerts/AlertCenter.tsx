"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useUser } from "@/components/auth/UserContext";
import type { Incident } from "@/lib/incidents";
import AlertToast from "./AlertToast";
import { beep, notifyDesktop, primeAudio } from "./effects";
import { getAlertSettings, useAlertBook, useAlertSettings } from "./store";
import { useAlertFeed } from "./useAlertFeed";

/** The toasts, bottom right, over every page; one alert per incident (README "Live alerts"). */
function Toasts() {
  const router = useRouter();
  const settings = useAlertSettings();
  const book = useAlertBook();

  useAlertFeed((i: Incident) => {
    // read at the moment of the alert: the settings may have changed since this render
    const now = getAlertSettings();
    if (now.sound) beep();
    if (now.desktop) notifyDesktop(i, (href) => router.push(href));
  });

  // browsers keep audio suspended until the user interacts with the page: resume it on the first press
  useEffect(() => {
    if (!settings.sound) return;
    const wake = () => primeAudio();
    window.addEventListener("pointerdown", wake, { once: true });
    return () => window.removeEventListener("pointerdown", wake);
  }, [settings.sound]);

  if (!settings.toast || book.alerts.length === 0) return null;
  return (
    <section aria-label="Live alerts" data-testid="alert-stack" className="pointer-events-none fixed bottom-4 right-4 z-40 flex flex-col-reverse gap-2">
      {book.alerts.map((a) => <AlertToast key={a.id} alert={a} />)}
    </section>
  );
}

/** Mounted once in the app layout, for signed-in users whose live updates are allowed. */
export default function AlertCenter() {
  const user = useUser();
  if (!user || user.mustChangePassword) return null;
  return <Toasts />;
}
