"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiJson } from "@/components/api/http";
import { useCan } from "@/components/auth/UserContext";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { inputCls } from "@/components/ui/form";
import { REVIEW_DECISIONS, type ReviewDecision } from "@/lib/roles";

interface Review {
  id: number;
  decision: ReviewDecision;
  note: string | null;
  item: string | null;
  username: string;
  at: string;
}

const LABEL: Record<ReviewDecision, string> = { confirmed: "Confirm violation", cleared: "Clear (no violation)", escalated: "Escalate" };
const TONE: Record<ReviewDecision, string> = { confirmed: "text-red-300", cleared: "text-risk-pass", escalated: "text-amber-300" };

/** Which task a decision is about (a file by its btId, a stream by its requestId). */
export interface ReviewTarget {
  targetKind: "file" | "stream";
  targetId: string;
}

/**
 * Human review of a file result or a stream — or, with `item`, of one frame or segment of it (its result's
 * requestId): decisions with a note, newest first; reviewers and supervisors record them. The task's panel also
 * lists the decisions taken on its items.
 */
export default function ReviewPanel({ targetKind, targetId, item = null }: ReviewTarget & { item?: string | null }) {
  const canRecord = useCan("review:record");
  const qc = useQueryClient();
  const key = ["reviews", targetKind, targetId];
  const [note, setNote] = useState("");
  const reviews = useQuery({ queryKey: key, queryFn: ({ signal }) => apiJson<{ reviews: Review[] }>(`/api/reviews?${new URLSearchParams({ targetKind, targetId })}`, { signal }) });
  const record = useMutation({
    mutationFn: (decision: ReviewDecision) => apiJson("/api/reviews", { method: "POST", body: { targetKind, targetId, item, decision, note } }),
    onSuccess: () => {
      setNote("");
      void qc.invalidateQueries({ queryKey: key });
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
        {record.error && <ErrorNote error={record.error} />}
        {reviews.error && <ErrorNote error={reviews.error} />}
        {list.length === 0 ? (
          <p className="text-xs text-zinc-500">Not reviewed yet.</p>
        ) : (
          <ul className="space-y-1 text-xs">
            {list.map((r) => (
              <li key={r.id} data-testid="review-entry" data-decision={r.decision}>
                <span className={`font-semibold ${TONE[r.decision]}`}>{r.decision}</span>
                {item === null && r.item && <span data-testid="review-entry-item" className="font-mono text-zinc-400"> on {r.item.replace(/^.*_(?=[va]\d+$)/, "")}</span>} by {r.username} · {new Date(r.at).toLocaleString()}
                {r.note && <span className="text-zinc-400"> — {r.note}</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Panel>
  );
}
