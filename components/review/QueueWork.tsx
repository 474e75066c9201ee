"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { ApiRequestError } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import type { IncidentDecision } from "@/lib/incidents";
import type { Queue } from "@/lib/queues";
import IncidentDetail from "./IncidentDetail";
import { useExposure } from "@/components/wellness/WellnessBar";
import { nextInQueue, releaseClaim, renewClaim, useQueuesQuery, type ClaimedIncident } from "./useQueues";
import { useAssign, useDecide } from "./useIncidents";
import { useTriageKeys } from "./useTriageKeys";

const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour12: false });

/**
 * Claimed work on one queue: the incident claimed for this reviewer, its claim renewed while the page shows it; each
 * decision loads the next; Skip gives it back (not offered again on this page); Stop gives it back and leaves.
 */
export default function QueueWork({ queue, onStop }: { queue: Pick<Queue, "id" | "name">; onStop: () => void }) {
  const [incident, setIncident] = useState<ClaimedIncident | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [note, setNote] = useState("");
  const [until, setUntil] = useState<string | null>(null);
  const skipped = useRef<string[]>([]);
  const held = useRef<string | null>(null);
  const loading = useRef(false);
  const decide = useDecide();
  const assign = useAssign();
  const counts = useQueuesQuery().data?.queues.find((q) => q.id === queue.id)?.counts;

  const load = useCallback(async () => {
    if (loading.current) return;
    loading.current = true;
    try {
      const r = await nextInQueue(queue.id, skipped.current);
      held.current = r.incident?.id ?? null;
      setIncident(r.incident);
      setUntil(r.incident?.claimExpiresAt ?? null);
      setNote("");
      setError(null);
    } catch (err) {
      setError(err);
      setIncident(null);
    } finally {
      loading.current = false;
    }
  }, [queue.id]);

  useEffect(() => {
    void load();
    // leaving the page (another queue, the list, another page): the claim goes back at once
    return () => {
      if (held.current) void releaseClaim(held.current).catch(() => undefined);
      held.current = null;
    };
  }, [load]);

  // the lease is renewed at a third of its length while this page shows the incident
  useEffect(() => {
    if (!incident || !until) return;
    const leaseMs = Math.max(3000, new Date(until).getTime() - Date.now());
    const t = setInterval(() => {
      if (held.current !== incident.id) return; // skipped or decided meanwhile
      renewClaim(incident.id).then(
        (r) => setUntil(r.claimExpiresAt),
        (err: unknown) => {
          if (!(err instanceof ApiRequestError) || err.status < 400 || err.status >= 500) return; // offline: try again next tick
          if (held.current !== incident.id) return;
          setNotice(`Your claim on incident ${incident.id} ended: ${err.message}. Loaded the next one.`);
          held.current = null;
          void load();
        },
      );
    }, leaseMs / 3);
    return () => clearInterval(t);
  }, [incident, until, load]);

  // an empty queue picks up new work as soon as the counts say some is waiting
  const waiting = counts ? counts.open - counts.claimed : 0;
  useEffect(() => {
    if (incident === null && waiting > 0) void load();
  }, [incident, waiting, load]);

  const decideCurrent = (d: IncidentDecision) => {
    if (!incident || decide.isPending) return;
    decide.mutate(
      { ids: [incident.id], decision: d, note },
      {
        onSuccess: () => {
          setNotice(null);
          held.current = null;
          void load();
        },
        onError: (err) => {
          if (err instanceof ApiRequestError && err.status === 409) {
            setNotice(err.message);
            decide.reset();
            held.current = null;
            void load();
          }
        },
      },
    );
  };
  const skip = async () => {
    if (!incident) return;
    skipped.current = [...skipped.current, incident.id].slice(-200);
    held.current = null;
    await releaseClaim(incident.id).catch(() => undefined);
    setNotice(`Skipped incident ${incident.id}: back in the queue for others.`);
    await load();
  };
  const stop = async () => {
    const id = held.current;
    held.current = null;
    if (id) await releaseClaim(id).catch(() => undefined);
    onStop();
  };

  // wellness: `v` reveals the claimed incident's blurred media; a REJECT one shown plainly counts as viewed
  const [revealedId, setRevealedId] = useState<string | null>(null);
  const expose = useExposure();
  const reveal = () => {
    if (!incident) return;
    setRevealedId((r) => (r === incident.id ? null : incident.id));
    expose(incident);
  };
  useTriageKeys({ v: reveal, c: () => decideCurrent("confirmed"), x: () => decideCurrent("cleared"), e: () => decideCurrent("escalated"), s: () => void skip(), Escape: () => void stop() });

  return (
    <div className="space-y-2" data-testid="queue-work" data-queue={queue.id}>
      <div className="flex flex-wrap items-center gap-2 rounded-md border border-sky-700/60 bg-sky-950/30 px-3 py-2 text-xs text-zinc-200">
        <span>
          Reviewing <strong data-testid="queue-work-name">{queue.name}</strong>
          {incident && until ? (
            <>
              {" "}
              · claimed for you until <span data-testid="claim-until">{clock(until)}</span>
            </>
          ) : null}
        </span>
        <span className="text-zinc-500">
          <kbd>c</kbd>/<kbd>x</kbd>/<kbd>e</kbd> decide and load the next · <kbd>v</kbd> reveal media · <kbd>s</kbd> skip · <kbd>Esc</kbd> stop
        </span>
        <span className="ml-auto flex gap-2">
          <button onClick={() => void skip()} disabled={!incident} className="rounded border border-surface-line px-2.5 py-1 text-zinc-100 hover:bg-white/5 disabled:opacity-40">
            Skip <kbd className="text-zinc-500">s</kbd>
          </button>
          <button onClick={() => void stop()} className="rounded border border-surface-line px-2.5 py-1 text-zinc-100 hover:bg-white/5">
            Stop reviewing
          </button>
        </span>
      </div>
      {notice && (
        <p role="status" className="text-xs text-amber-300" data-testid="queue-notice">
          {notice}
        </p>
      )}
      {error ? <ErrorNote error={error} /> : null}
      {incident === undefined ? (
        <Panel title="Incident">
          <p className="p-6 text-center text-sm text-zinc-500">Claiming the next incident…</p>
        </Panel>
      ) : incident === null ? (
        <Panel title="Incident">
          <p className="p-6 text-center text-sm text-zinc-400" data-testid="queue-empty">
            Nothing left to claim in {queue.name}
            {skipped.current.length ? ` (you skipped ${skipped.current.length})` : ""}. New incidents load here as they arrive.
          </p>
        </Panel>
      ) : (
        <div data-testid="claimed-incident" data-id={incident.id}>
          <IncidentDetail incident={incident} detail={incident} canDecide note={note} setNote={setNote} onDecide={decideCurrent} onAssignMe={() => assign.mutate({ id: incident.id })} revealed={revealedId === incident.id} onReveal={() => expose(incident)} busy={decide.isPending || assign.isPending} error={decide.error ?? assign.error} />
        </div>
      )}
    </div>
  );
}
