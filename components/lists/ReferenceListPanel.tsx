"use client";

import { useState, type FormEvent } from "react";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { apiFetch } from "@/components/api/http";

export interface ListGroup {
  lists: string[];
  entries: Array<{ list: string; entry: string; detail: string }>;
}

/** One kind of reference list: its entries, an upload form and a remove button per entry. */
export default function ReferenceListPanel(p: { kind: "faces" | "images" | "audio"; title: string; accept: string; hint: string; group: ListGroup; onChange: () => void; freeListName?: boolean }) {
  const [error, setError] = useState<unknown>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setMessage(null);
    const form = e.currentTarget;
    try {
      const res = await apiFetch(`/api/lists/${p.kind}`, { method: "POST", body: new FormData(form) });
      const body = (await res.json()) as { message?: string; error?: string };
      if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
      setMessage(body.message ?? "added");
      form.reset();
      p.onChange();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function remove(list: string, entry: string) {
    if (!window.confirm(`Remove ${entry} from ${list}?`)) return;
    await apiFetch(`/api/lists/${p.kind}?${new URLSearchParams({ list, entry })}`, { method: "DELETE" });
    p.onChange();
  }

  return (
    <Panel title={p.title}>
      <div className="space-y-3 p-3" data-testid={`list-${p.kind}`}>
        <ul className="space-y-1 text-sm">
          {p.group.entries.length === 0 && <li className="text-zinc-500">No entries yet.</li>}
          {p.group.entries.map((e) => (
            <li key={`${e.list}/${e.entry}`} className="flex items-center justify-between gap-2" data-testid="list-entry">
              <span>
                <span className="font-medium">{e.entry}</span> <span className="text-xs text-zinc-500">{e.list} · {e.detail}</span>
              </span>
              <button type="button" className="text-xs text-risk-reject hover:underline" onClick={() => void remove(e.list, e.entry)}>
                remove
              </button>
            </li>
          ))}
        </ul>
        <form onSubmit={(e) => void add(e)} className="space-y-2 border-t border-surface-line pt-3 text-sm">
          {p.freeListName ? (
            <input name="list" required defaultValue={p.group.lists[0]} pattern="[a-z0-9_-]+" className="w-full rounded border border-surface-line bg-surface px-2 py-1" aria-label="list" />
          ) : (
            <select name="list" className="w-full rounded border border-surface-line bg-surface px-2 py-1" aria-label="list">
              {p.group.lists.map((l) => (
                <option key={l}>{l}</option>
              ))}
            </select>
          )}
          <input name="entry" required placeholder="entry name" className="w-full rounded border border-surface-line bg-surface px-2 py-1" aria-label="entry" />
          <input name="file" type="file" required accept={p.accept} className="w-full text-xs" aria-label="file" />
          <p className="text-xs text-zinc-500">{p.hint}</p>
          <button type="submit" disabled={busy} className="rounded bg-zinc-200 px-3 py-1 text-xs font-medium text-zinc-900 disabled:opacity-50">
            {busy ? "Adding…" : "Add"}
          </button>
          {message && <p className="text-xs text-risk-pass" data-testid="list-added">{message}</p>}
          {error !== null && <ErrorNote error={error} testId="list-error" />}
        </form>
      </div>
    </Panel>
  );
}
