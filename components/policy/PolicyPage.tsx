"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiJson } from "@/components/api/http";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import type { PolicyRule } from "@/lib/dashboard-api";
import PolicyRow from "./PolicyRow";
import { useCan } from "@/components/auth/UserContext";
import ReadOnlyNote from "@/components/auth/ReadOnlyNote";

const POLICY_KEY = ["policy"] as const;

const DETECTOR_TITLES: Record<string, string> = {
  nsfw: "EROTIC (nsfwjs classes)",
  qrcode: "QRCODE",
  hash: "Prohibited-image hash bank",
  ocr: "Image text keyword lists (OCR)",
  speech: "Speech keyword lists (transcripts)",
  known: "Known audio (reference tracks)",
};

/** Run-time thresholds → PASS / REVIEW / REJECT, per detector and label; changes apply to the next frame or segment. */
export default function PolicyPage() {
  const client = useQueryClient();
  const canEdit = useCan("policy:edit");
  const q = useQuery({ queryKey: POLICY_KEY, queryFn: ({ signal }) => apiJson<{ rules: PolicyRule[] }>("/api/policy", { signal }) });
  const refresh = () => client.invalidateQueries({ queryKey: POLICY_KEY });
  if (q.error) return <ErrorNote error={q.error} prefix="Policy" testId="policy-load-error" />;
  if (!q.data) return <p className="text-sm text-zinc-400">Loading policy…</p>;
  const groups = new Map<string, PolicyRule[]>();
  for (const r of q.data.rules) groups.set(r.detector, [...(groups.get(r.detector) ?? []), r]);
  const overridden = q.data.rules.filter((r) => r.overridden).length;
  async function resetAll() {
    if (!window.confirm("Reset every threshold to its default?")) return;
    await apiJson("/api/policy", { method: "DELETE" });
    await refresh();
  }
  return (
    <div className="space-y-4" data-testid="policy-page">
      <div className="flex items-center justify-between">
        <h1 className="text-lg font-semibold">Policy</h1>
        {canEdit && overridden > 0 && (
          <button type="button" onClick={() => void resetAll()} className="text-xs text-sky-300 hover:underline">
            Reset all {overridden} override(s)
          </button>
        )}
      </div>
      <p className="text-sm text-zinc-400">
        A hit needs its score at the <em>review</em> threshold (it then takes the detector&apos;s own level: REVIEW, or REJECT for lists and entries marked so);
        at the <em>reject</em> threshold it is REJECT. An empty field switches that band off; a disabled label never fires. Changes apply to the next frame or segment, without a restart.
      </p>
      {!canEdit && <ReadOnlyNote what="thresholds" />}
      <fieldset disabled={!canEdit} className="contents">
      {[...groups].map(([detector, rules]) => (
        <Panel key={detector} title={DETECTOR_TITLES[detector] ?? detector}>
          <table className="w-full text-sm" data-testid="policy-table" data-detector={detector}>
            <thead className="text-left text-[10px] uppercase tracking-wider text-zinc-500">
              <tr>
                <th className="px-3 py-1.5 font-medium">Label</th>
                <th className="px-2 py-1.5 font-medium" colSpan={4}>Review · Reject · Enabled</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r) => (
                <PolicyRow key={r.key} rule={r} onChange={() => void refresh()} />
              ))}
            </tbody>
          </table>
        </Panel>
      ))}
      </fieldset>
    </div>
  );
}
