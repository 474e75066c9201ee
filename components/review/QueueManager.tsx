"use client";

import Link from "next/link";
import { useState } from "react";
import { useCan } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { ageText, type Queue, type QueueInput } from "@/lib/queues";
import QueueForm from "./QueueForm";
import { useDeleteQueue, useQueuesLive, useQueuesQuery, useSaveQueue } from "./useQueues";

/** "Advertising · REJECT · streams · title *casino*": a rule in words. */
function ruleText(q: Queue): string {
  if (q.isDefault) return "everything no other queue takes";
  const r = q.rule;
  const parts = [r.labels?.join(", "), r.levels?.join("/"), r.kinds?.map((k) => `${k}s`).join("/"), r.appIds && `app ${r.appIds.join(", ")}`, r.eventIds && `event ${r.eventIds.join(", ")}`, r.titlePattern && `title ${r.titlePattern}`, r.tokenIdPattern && `tokenId ${r.tokenIdPattern}`, r.lists && `lists ${r.lists.join(", ")}`].filter(Boolean);
  return parts.length ? parts.join(" · ") : "every incident";
}
const whoText = (q: Queue) => (q.roles.length === 0 && q.users.length === 0 ? "every reviewer" : [...q.roles.map((r) => `${r}s`), ...q.users].join(", "));

/**
 * Supervisors' queue settings (/review/queues): queues in routing order (the first whose rule matches takes an
 * incident; the default one the rest), created, edited, moved and deleted; open incidents are routed again at once.
 */
export default function QueueManager() {
  useQueuesLive();
  const q = useQueuesQuery();
  const manage = useCan("users:manage");
  const save = useSaveQueue();
  const del = useDeleteQueue();
  const [editing, setEditing] = useState<Queue | "new" | null>(null);
  const queues = q.data?.queues ?? [];
  const movable = queues.filter((x) => !x.isDefault);
  const onSave = (body: QueueInput) => {
    const id = editing && editing !== "new" ? editing.id : null;
    save.mutate({ id, body }, { onSuccess: () => setEditing(null) });
  };
  const move = (x: Queue, by: number) => save.mutate({ id: x.id, body: { position: Math.max(0, movable.indexOf(x) + by) } });
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-lg font-semibold text-zinc-100">Review queues</h1>
        <p className="text-xs text-zinc-500">An incident goes to the first queue whose rule matches, top to bottom; the default queue takes the rest.</p>
        <Link href="/review" className="ml-auto text-xs text-sky-300 hover:underline">
          Back to the review queue
        </Link>
      </div>
      {q.error ? <ErrorNote error={q.error} /> : null}
      {del.error ? <ErrorNote error={del.error} /> : null}
      <Panel title="Queues" actions={manage && editing === null ? <button onClick={() => (save.reset(), setEditing("new"))} className="rounded bg-sky-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-sky-500">New queue</button> : null}>
        {editing === "new" && <QueueForm queue={null} busy={save.isPending} error={save.error} onSave={onSave} onCancel={() => setEditing(null)} />}
        <ol className="divide-y divide-surface-line">
          {queues.map((x) =>
            editing !== null && editing !== "new" && editing.id === x.id ? (
              <li key={x.id}>
                <QueueForm queue={x} busy={save.isPending} error={save.error} onSave={onSave} onCancel={() => setEditing(null)} />
              </li>
            ) : (
              <li key={x.id} data-testid="queue-row" data-queue={x.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-3 py-2 text-xs">
                <div className="min-w-0 flex-1 basis-64">
                  <div className="text-sm text-zinc-100">
                    {x.name} <span className="text-[10px] uppercase tracking-wider text-zinc-500">{x.order === "worst" ? "worst first" : "oldest first"}</span>
                  </div>
                  <div className="break-words text-zinc-400">{ruleText(x)}</div>
                  <div className="text-zinc-500">Worked by {whoText(x)}</div>
                </div>
                <div className="text-zinc-400">
                  {x.counts.open} open · {x.counts.claimed} claimed · oldest {ageText(x.counts.oldestOpenAt)}
                </div>
                {manage && (
                  <div className="flex gap-1.5">
                    {!x.isDefault && (
                      <>
                        <button aria-label={`Move ${x.name} up`} disabled={movable.indexOf(x) === 0 || save.isPending} onClick={() => move(x, -1)} className="rounded border border-surface-line px-2 py-0.5 text-zinc-200 hover:bg-white/5 disabled:opacity-40">
                          ↑
                        </button>
                        <button aria-label={`Move ${x.name} down`} disabled={movable.indexOf(x) === movable.length - 1 || save.isPending} onClick={() => move(x, 1)} className="rounded border border-surface-line px-2 py-0.5 text-zinc-200 hover:bg-white/5 disabled:opacity-40">
                          ↓
                        </button>
                      </>
                    )}
                    <button aria-label={`Edit ${x.name}`} onClick={() => (save.reset(), setEditing(x))} className="rounded border border-surface-line px-2 py-0.5 text-zinc-200 hover:bg-white/5">
                      Edit
                    </button>
                    {!x.isDefault && (
                      <button aria-label={`Delete ${x.name}`} disabled={del.isPending} onClick={() => window.confirm(`Delete the queue "${x.name}"? Its open incidents go where the other rules send them.`) && del.mutate(x.id)} className="rounded border border-red-900/60 px-2 py-0.5 text-red-300 hover:bg-red-950/40">
                        Delete
                      </button>
                    )}
                  </div>
                )}
              </li>
            ),
          )}
        </ol>
      </Panel>
    </div>
  );
}
