"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiJson } from "@/components/api/http";
import { useCan } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { decisionScope } from "./decision-scope";
import { inputCls } from "@/components/ui/form";
import { REVIEW_DECISIONS, type ReviewDecision } from "@/lib/roles";

interface Review {
  id: number;
  decision: ReviewDecision;
  note: string | null;
  item: string | null;
  /** the item as the reviewer saw it ("frame at 00:06.0"); null on decisions recorded before it was kept */
  itemLabel: string | null;
  username: string;
  at: string;
}

const LABEL: Record<ReviewDecision, string> = { confirmed: "Confirm violation", cleared: "Clear (no violation)", escalated: "Escalate" };
const TONE: Record<ReviewDecision, string> = { confirmed: "text-red-300", cleared: "text-risk-pass", escalated: "text-amber-300" };

/** What an item decision did to an incident it is a hit of (server/incidents/item-review.ts). */
interface ItemEffect {
  incidentId: string;
  incident: string;
  decided: boolean;
  reason: string;
}

/** An item in words when no label was kept with it: never the internal id ("…_v4") alone. */
const itemWords = (r: Review) => r.itemLabel ?? (/_a\d+$/.test(r.item ?? "") ? "a segment" : /_v\d+$/.test(r.item ?? "") ? "a frame" : "one item");

/** Which task a decision is about (a file by its btId, a stream by its requestId). */
export interface ReviewTarget {
  targetKind: "file" | "stream";
  targetId: string;
}

/**
 * Human review of a file result or a stream — or, with `item`, of one frame or segment of it (its result's
 * requestId): decisions with a note, newest first; reviewers and supervisors record them. The task's panel also
 * lists the decisions taken on its items. An item decision also decides the incidents the item is a hit of (the
 * server's rule); what it did to each is shown under the buttons.
 */
export default function ReviewPanel({ targetKind, targetId, item = null, itemLabel = null }: ReviewTarget & { item?: string | null; itemLabel?: string | null }) {
  const canRecord = useCan("review:record");
  const qc = useQueryClient();
  const key = ["reviews", targetKind, targetId];
  const [note, setNote] = useState("");
  const reviews = useQuery({ queryKey: key, queryFn: ({ signal }) => apiJson<{ reviews: Review[] }>(`/api/reviews?${new URLSearchParams({ targetKind, targetId })}`, { signal }) });
  const record = useMutation({
    mutationFn: (decision: ReviewDecision) => apiJson<{ incidents: ItemEffect[] }>("/api/reviews", { method: "POST", body: { targetKind, targetId, item, itemLabel, decision, note } }),
    onSuccess: (r) => {
      setNote("");
      void qc.invalidateQueries({ queryKey: key });
      if (r.incidents.length) void qc.invalidateQueries({ queryKey: ["incidents"] });
    },
  });
  const all = reviews.data?.reviews ?? [];
  const list = item === null ? all : all.filter((r) => r.item === item);
  return (
    <Panel title={item === null ? "Review" : "Review of this item"}>
      <div className="space-y-2 p-3" data-testid={item === null ? "review-panel" : "item-review-panel"} data-item={item ?? undefined}>
        {canRecord && (
          <div className="flex flex-wrap items-center gap-2">
            <input aria-label="review note" placeholder="note (optional)" className={`${inputCls} max-w-md flex-1`} maxLength={2000} value={note} onChange={(e) => setNote(e.target.value)} />
            {REVIEW_DECISIONS.map((d) => (
              <button key={d} disabled={record.isPending} onClick={() => record.mutate(d)} className="rounded border border-surface-line px-2.5 py-1 text-xs text-zinc-200 hover:bg-surface-sunken disabled:opacity-50">
                {LABEL[d]}
              </button>
            ))}
          </div>
        )}
        {canRecord && (
          <p data-testid="decision-scope" className="text-[11px] text-zinc-500">
            {decisionScope(item === null ? "source" : "item", itemLabel && /segment|audio/i.test(itemLabel) ? "segment" : "frame")}
          </p>
        )}
        {record.error && <ErrorNote error={record.error} />}
        {record.data && record.data.incidents.length > 0 && (
          <ul className="space-y-0.5 text-xs text-zinc-300" data-testid="item-review-incidents">
            {record.data.incidents.map((e) => (
              <li key={e.incidentId} data-testid="item-review-incident" data-decided={e.decided}>
                Incident <a href={`/review?id=${e.incidentId}`} className="text-sky-300 hover:underline">{e.incident}</a>: {e.reason}
              </li>
            ))}
          </ul>
        )}
        {reviews.error && <ErrorNote error={reviews.error} />}
        {list.length === 0 ? (
          <p className="text-xs text-zinc-500">Not reviewed yet.</p>
        ) : (
          <ul className="space-y-1 text-xs">
            {list.map((r) => (
              <li key={r.id} data-testid="review-entry" data-decision={r.decision}>
                <span className={`font-semibold ${TONE[r.decision]}`}>{r.decision}</span>
                {item === null && r.item && <span data-testid="review-entry-item" title={r.item} className="text-zinc-400"> on {itemWords(r)}</span>} by {r.username} · {new Date(r.at).toLocaleString()}
                {r.note && <span className="text-zinc-400"> — {r.note}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}
