"use client";

import { useState, type FormEvent } from "react";
import { apiJson } from "@/components/api/http";
import { useAction } from "@/components/hooks/useAction";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { KEYWORD_SCOPE_TYPES, type KeywordListView, type KeywordScope } from "@/lib/dashboard-api";

const SCOPE_NAME: Record<KeywordScope, string> = { image: "image text", speech: "speech" };
const keyOf = (l: Pick<KeywordListView, "scope" | "name">) => `${l.scope}/${l.name}`;

/** One list: its entries (remove buttons) and an add form. */
function KeywordListRow(p: { list: KeywordListView; onChange: () => void }) {
  const { list } = p;
  const [open, setOpen] = useState(false);
  const { error, run } = useAction(p.onChange);
  async function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const entry = String(new FormData(form).get("entry") ?? "");
    await run(async () => {
      await apiJson("/api/lists/keywords", { method: "POST", body: { scope: list.scope, list: list.name, entry } });
      form.reset();
    });
  }
  const remove = (entry: string) =>
    run(() => apiJson(`/api/lists/keywords?${new URLSearchParams({ scope: list.scope, list: list.name, entry })}`, { method: "DELETE" }));
  const deleteList = () => {
    if (window.confirm(`Delete the list ${list.name}?`)) void run(() => apiJson(`/api/lists/keywords?${new URLSearchParams({ scope: list.scope, list: list.name })}`, { method: "DELETE" }));
  };
  return (
    <>
      <tr className="border-t border-surface-line" data-testid="keyword-list" data-list={keyOf(list)}>
        <td className="px-3 py-1.5 font-mono">
          <button type="button" className="hover:underline" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? "▾" : "▸"} {list.name}
          </button>
        </td>
        <td className="px-3 py-1.5">
          {SCOPE_NAME[list.scope]} ({list.type})
        </td>
        <td className="px-3 py-1.5 font-mono">{list.labels.join(":")}</td>
        <td className="px-3 py-1.5">{list.riskLevel}</td>
        <td className="px-3 py-1.5">
          {list.entries.length}
          {list.removed.length > 0 && <span className="text-xs text-zinc-500"> ({list.removed.length} removed)</span>}
          {!list.builtIn && <span className="ml-2 text-xs text-sky-300">custom</span>}
        </td>
      </tr>
      {open && (
        <tr data-testid="keyword-list-detail" data-list={keyOf(list)}>
          <td colSpan={5} className="space-y-2 bg-surface px-3 py-2">
            <ul className="flex flex-wrap gap-1.5 text-xs">
              {list.entries.map((e) => (
                <li key={e.entry} className="flex items-center gap-1 rounded border border-surface-line px-1.5 py-0.5" data-testid="keyword-entry">
                  <span className={e.kind === "rule" ? "font-mono text-zinc-400" : ""} title={e.kind === "rule" ? "built-in rule (regular expression)" : undefined}>
                    {e.entry}
                  </span>
                  <button type="button" aria-label={`remove ${e.entry}`} className="text-risk-reject hover:underline" onClick={() => void remove(e.entry)}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
            <form onSubmit={(e) => void add(e)} className="flex gap-2 text-sm">
              <input name="entry" required maxLength={100} placeholder={list.scope === "speech" ? "English words, numbers spelled out" : "word or phrase"} aria-label="keyword" className="flex-1 rounded border border-surface-line bg-surface px-2 py-1" />
              <button type="submit" className="rounded bg-zinc-200 px-3 py-1 text-xs font-medium text-zinc-900">
                Add keyword
              </button>
              {!list.builtIn && (
                <button type="button" onClick={deleteList} className="text-xs text-risk-reject hover:underline">
                  delete list
                </button>
              )}
            </form>
            {list.removed.length > 0 && <p className="text-xs text-zinc-500">Removed built-in entries (add one again to restore it): {list.removed.join(", ")}</p>}
            {error !== null && <ErrorNote error={error} testId="keyword-error" />}
          </td>
        </tr>
      )}
    </>
  );
}

/** A form creating a list mapped to a label. */
function NewListForm(p: { onChange: () => void }) {
  const [scope, setScope] = useState<KeywordScope>("image");
  const { error, run } = useAction(p.onChange);
  async function create(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    await run(async () => {
      const labels = String(f.get("labels") ?? "").split(":").map((s) => s.trim());
      await apiJson("/api/lists/keywords", { method: "PUT", body: { scope, list: f.get("list"), type: f.get("type"), riskLevel: f.get("riskLevel"), labels } });
      form.reset();
    });
  }
  const input = "rounded border border-surface-line bg-surface px-2 py-1";
  return (
    <form onSubmit={(e) => void create(e)} className="flex flex-wrap items-center gap-2 border-t border-surface-line p-3 text-sm" data-testid="keyword-new-list">
      <span className="text-xs text-zinc-400">New list</span>
      <select aria-label="scope" value={scope} onChange={(e) => setScope(e.target.value as KeywordScope)} className={input}>
        <option value="image">image text</option>
        <option value="speech">speech</option>
      </select>
      <input name="list" required pattern="[a-z0-9][a-z0-9_\-]*" placeholder="name (a-z 0-9 _ -)" aria-label="list name" className={input} />
      <select name="type" aria-label="type" className={input}>
        {KEYWORD_SCOPE_TYPES[scope].map((t) => (
          <option key={t}>{t}</option>
        ))}
      </select>
      <select name="riskLevel" aria-label="level" className={input}>
        <option>REVIEW</option>
        <option>REJECT</option>
      </select>
      <input name="labels" required placeholder="label1:label2:label3, e.g. ad:ad:guanggaoci" aria-label="labels" className={`${input} w-64`} />
      <button type="submit" className="rounded bg-zinc-200 px-3 py-1 text-xs font-medium text-zinc-900">
        Create
      </button>
      {error !== null && <ErrorNote error={error} testId="keyword-new-error" />}
    </form>
  );
}

/** Keyword lists for image text (OCR) and speech (transcripts): built-in seed entries plus operator changes. */
export default function KeywordListsPanel(p: { lists: KeywordListView[]; onChange: () => void }) {
  return (
    <Panel title="Keyword lists (image text and speech)">
      <table className="w-full text-sm" data-testid="keyword-lists">
        <thead className="text-left text-xs text-zinc-400">
          <tr>
            <th className="px-3 py-1.5">List</th>
            <th className="px-3 py-1.5">Applies to</th>
            <th className="px-3 py-1.5">Label</th>
            <th className="px-3 py-1.5">Level</th>
            <th className="px-3 py-1.5">Entries</th>
          </tr>
        </thead>
        <tbody>
          {p.lists.map((l) => (
            <KeywordListRow key={keyOf(l)} list={l} onChange={p.onChange} />
          ))}
        </tbody>
      </table>
      <NewListForm onChange={p.onChange} />
    </Panel>
  );
}
