"use client";

import { useState } from "react";
import ErrorNote from "@/components/ui/ErrorNote";
import { Field, inputCls } from "@/components/ui/form";
import { LABEL1_NAMES } from "@/lib/labels";
import type { Queue, QueueInput, QueueOrder, QueueRule } from "@/lib/queues";
import { ROLES } from "@/lib/roles";

const CATEGORIES = Object.entries(LABEL1_NAMES).filter(([slug]) => slug !== "normal");
const words = (s: string) => s.split(",").map((w) => w.trim()).filter(Boolean);
const toggle = <T,>(list: T[], v: T, on: boolean) => (on ? [...list, v] : list.filter((x) => x !== v));

function Checks<T extends string>({ legend, options, value, onChange }: { legend: string; options: Array<[T, string]>; value: T[]; onChange: (v: T[]) => void }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-1 text-[11px] font-semibold uppercase tracking-wider text-zinc-400">{legend}</legend>
      <div className="flex flex-wrap gap-x-3 gap-y-1">
        {options.map(([v, name]) => (
          <label key={v} className="flex items-center gap-1.5 text-xs text-zinc-300">
            <input type="checkbox" checked={value.includes(v)} onChange={(e) => onChange(toggle(value, v, e.target.checked))} className="h-3.5 w-3.5 accent-sky-500" />
            {name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Create or edit one queue: its name, order, routing rule and who may work it. Empty fields match anything. */
export default function QueueForm({ queue, busy, error, onSave, onCancel }: { queue: Queue | null; busy: boolean; error: unknown; onSave: (body: QueueInput) => void; onCancel: () => void }) {
  const r: QueueRule = queue?.rule ?? {};
  const isDefault = queue?.isDefault ?? false;
  const [name, setName] = useState(queue?.name ?? "");
  const [order, setOrder] = useState<QueueOrder>(queue?.order ?? "oldest");
  const [labels, setLabels] = useState<string[]>(r.labels ?? []);
  const [levels, setLevels] = useState<Array<"REVIEW" | "REJECT">>(r.levels ?? []);
  const [kinds, setKinds] = useState<Array<"stream" | "file">>(r.kinds ?? []);
  const [text, setText] = useState({ appIds: (r.appIds ?? []).join(", "), eventIds: (r.eventIds ?? []).join(", "), lists: (r.lists ?? []).join(", "), titlePattern: r.titlePattern ?? "", tokenIdPattern: r.tokenIdPattern ?? "", users: (queue?.users ?? []).join(", ") });
  const [roles, setRoles] = useState<string[]>(queue?.roles ?? []);
  const set = (k: keyof typeof text) => (e: React.ChangeEvent<HTMLInputElement>) => setText((t) => ({ ...t, [k]: e.target.value }));
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const rule: QueueRule = {};
    if (labels.length) rule.labels = labels;
    if (levels.length) rule.levels = levels;
    if (kinds.length) rule.kinds = kinds;
    for (const k of ["appIds", "eventIds", "lists"] as const) if (words(text[k]).length) rule[k] = words(text[k]);
    if (text.titlePattern.trim()) rule.titlePattern = text.titlePattern.trim();
    if (text.tokenIdPattern.trim()) rule.tokenIdPattern = text.tokenIdPattern.trim();
    onSave({ name, order, rule: isDefault ? {} : rule, roles: roles as QueueInput["roles"], users: words(text.users) });
  };
  const id = (k: string) => `queue-${k}`;
  return (
    <form onSubmit={submit} aria-label={queue ? `Edit queue ${queue.name}` : "New queue"} className="space-y-3 p-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[2fr_1fr]">
        <Field label="Name" htmlFor={id("name")}>
          <input id={id("name")} className={inputCls} value={name} maxLength={80} required onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Order" htmlFor={id("order")}>
          <select id={id("order")} className={inputCls} value={order} onChange={(e) => setOrder(e.target.value as QueueOrder)}>
            <option value="oldest">Oldest first</option>
            <option value="worst">Worst first (REJECT, then score)</option>
          </select>
        </Field>
      </div>
      {isDefault ? (
        <p className="text-xs text-zinc-400">The default queue takes every incident no other queue&apos;s rule matches: it has no rule of its own.</p>
      ) : (
        <div className="space-y-3 rounded border border-surface-line p-2">
          <p className="text-[11px] text-zinc-500">Routing rule: every filled field must match; within a field, any value. Empty: every incident.</p>
          <Checks legend="Categories" options={CATEGORIES.map(([slug, n]) => [slug, n.en])} value={labels} onChange={setLabels} />
          <div className="flex flex-wrap gap-6">
            <Checks legend="Risk levels" options={[["REJECT", "REJECT"], ["REVIEW", "REVIEW"]]} value={levels} onChange={setLevels} />
            <Checks legend="Sources" options={[["stream", "Live streams"], ["file", "Files"]]} value={kinds} onChange={setKinds} />
          </div>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <Field label="App ids" htmlFor={id("apps")} hint="comma-separated, exact (no case)">
              <input id={id("apps")} className={inputCls} value={text.appIds} onChange={set("appIds")} placeholder="any" />
            </Field>
            <Field label="Event ids" htmlFor={id("events")} hint="comma-separated, exact (no case)">
              <input id={id("events")} className={inputCls} value={text.eventIds} onChange={set("eventIds")} placeholder="any" />
            </Field>
            <Field label="Title pattern" htmlFor={id("title")} hint="* any text, ? one character; without them: contains">
              <input id={id("title")} className={inputCls} value={text.titlePattern} maxLength={200} onChange={set("titlePattern")} placeholder="e.g. *casino*" />
            </Field>
            <Field label="tokenId pattern" htmlFor={id("token")} hint="the end user's tokenId; * and ? as for titles">
              <input id={id("token")} className={inputCls} value={text.tokenIdPattern} maxLength={200} onChange={set("tokenIdPattern")} placeholder="e.g. vip-*" />
            </Field>
            <Field label="List names" htmlFor={id("lists")} hint="keyword, image, audio or face lists whose match is in the evidence">
              <input id={id("lists")} className={inputCls} value={text.lists} onChange={set("lists")} placeholder="any" />
            </Field>
          </div>
        </div>
      )}
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Checks legend="Roles that may work it" options={ROLES.filter((x) => x !== "moderator").map((x) => [x, x])} value={roles} onChange={setRoles} />
        <Field label="Users who may work it" htmlFor={id("users")} hint="comma-separated usernames; with no roles or users, every reviewer">
          <input id={id("users")} className={inputCls} value={text.users} onChange={set("users")} placeholder="every reviewer" />
        </Field>
      </div>
      {error ? <ErrorNote error={error} /> : null}
      <div className="flex gap-2">
        <button type="submit" disabled={busy} className="rounded bg-sky-600 px-3 py-1.5 text-xs font-medium text-white hover:bg-sky-500 disabled:opacity-50">
          {queue ? "Save queue" : "Create queue"}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-surface-line px-3 py-1.5 text-xs text-zinc-200 hover:bg-white/5">
          Cancel
        </button>
      </div>
    </form>
  );
}
