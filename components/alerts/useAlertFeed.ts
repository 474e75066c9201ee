"use client";

import { useRef } from "react";
import { apiJson } from "@/components/api/http";
import { useSocketRoom } from "@/components/hooks/useSocket";
import { INCIDENTS_ROOM } from "@/lib/events";
import type { StreamAlert } from "@/lib/alert-fold";
import { incidentQueryString, type Incident } from "@/lib/incidents";
import { applyBaseline, applyIncident, applyRuleAlert } from "./store";

/** What is already open when the room is (re)joined: known, so it alerts only if it grows. */
const BASELINE = `/api/incidents${incidentQueryString({ status: "open", kind: "stream", limit: 1000 })}`;

/**
 * The incidents room feeding the alert store. Each (re)join fetches the open stream incidents as a baseline;
 * events that arrive meanwhile wait for it, so a known incident that only gets assigned raises nothing.
 * `onRaised` runs once per raise of a stream's entry (sound, desktop notification).
 */
export function useAlertFeed(onRaised: (entry: StreamAlert) => void): void {
  const pending = useRef<Incident[] | null>(null);
  const generation = useRef(0);

  const take = (i: Incident) => {
    const step = applyIncident(i);
    if (step.effect === "raised" && step.entry) onRaised(step.entry);
  };

  // a live rule's priority alert: shown on its stream's entry and raised (sound, notification) when the user wants alerts
  useSocketRoom(INCIDENTS_ROOM, "rule:alert", (a) => {
    const entry = applyRuleAlert(a);
    if (entry && !entry.dismissed) onRaised(entry);
  });

  useSocketRoom(
    INCIDENTS_ROOM,
    "incident",
    (i) => {
      if (pending.current) pending.current.push(i);
      else take(i);
    },
    (ok) => {
      if (!ok) return;
      const gen = ++generation.current;
      pending.current ??= [];
      apiJson<{ incidents: Incident[] }>(BASELINE)
        .then((r) => {
          if (gen === generation.current) applyBaseline(r.incidents);
        })
        .catch(() => undefined) // no baseline: every event is judged on its own
        .finally(() => {
          if (gen !== generation.current) return;
          const held = pending.current ?? [];
          pending.current = null;
          for (const i of held) take(i);
        });
    },
  );
}
