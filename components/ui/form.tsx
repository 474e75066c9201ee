import Link from "next/link";
import type { ReactNode } from "react";

export const inputCls =
  "w-full rounded border border-surface-line bg-surface-sunken px-2 py-1.5 text-sm text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none";

/** A labelled form control; `hint` becomes the label's tooltip. */
export function Field({ label, htmlFor, children, className = "", hint }: { label: string; htmlFor: string; children: ReactNode; className?: string; hint?: string }) {
  return (
    <div className={`min-w-0 ${className}`}>
      <label htmlFor={htmlFor} title={hint} className="mb-1 block text-[11px] font-semibold uppercase tracking-wider text-zinc-400">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The optional free-text title both submission forms carry (at most 128 characters). */
export function TitleField({ id, value, onChange }: { id: string; value: string; onChange: (title: string) => void }) {
  return (
    <Field label="Title" htmlFor={id} className="min-w-40 flex-1">
      <input id={id} className={inputCls} maxLength={128} placeholder="optional" value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

/** The end user a video or stream belongs to (the contract's tokenId): the review page lists that user's history. */
export function EndUserField({ id, value, onChange }: { id: string; value: string; onChange: (tokenId: string) => void }) {
  return (
    <Field label="End user" htmlFor={id} className="min-w-40 flex-1">
      <input id={id} className={inputCls} maxLength={64} placeholder="optional tokenId" title="The end user's id (the contract's tokenId): the review page lists that user's other streams, files and incidents" value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}

/** An on/off option as a small labelled checkbox. */
export function Toggle({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; hint?: string }) {
  return (
    <label title={hint} className="flex cursor-pointer items-center gap-2 text-xs text-zinc-300">
      <input type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} className="h-3.5 w-3.5 accent-sky-500" />
      {label}
    </label>
  );
}

/** What the last submission created: its name and a clear link to open it ("Started <name> · Open its timeline →"). */
export interface Created {
  testId: string;
  verb: string;
  href: string;
  id: string;
  /** what a person calls it (title or URL); the id when absent */
  name?: string;
  /** the link's words, e.g. "Open its timeline" (default: the id) */
  open?: string;
}

/**
 * The form's right-aligned submit button and a link to what the last submission created. Both are items of the
 * form's own (wrapping) row: the notice takes a line of its own under the row, so the button never moves down.
 */
export function SubmitArea({ pending, label, pendingLabel, created }: { pending: boolean; label: string; pendingLabel: string; created?: Created }) {
  return (
    <>
      {created && (
        <span data-testid={created.testId} role="status" className="order-last flex min-w-0 basis-full flex-wrap items-center justify-end gap-x-2 text-xs text-zinc-400">
          {created.open ? (
            <>
              <span className="min-w-0 truncate" title={created.id}>
                {created.verb} <span className="text-zinc-200">{created.name ?? created.id}</span>
              </span>
              <Link className="shrink-0 rounded border border-sky-600/70 px-2 py-0.5 font-medium text-sky-300 hover:bg-sky-500/10" href={created.href}>
                {created.open} →
              </Link>
            </>
          ) : (
            <span>
              {created.verb}{" "}
              <Link className="font-mono text-sky-300 hover:underline" href={created.href}>
                {created.id}
              </Link>
            </span>
          )}
        </span>
      )}
      <button
        type="submit"
        disabled={pending}
        className="ml-auto rounded bg-sky-600 px-4 py-1.5 text-sm font-medium text-white hover:bg-sky-500 disabled:cursor-wait disabled:opacity-60"
      >
        {pending ? pendingLabel : label}
      </button>
    </>
  );
}
