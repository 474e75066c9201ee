import type { ReactNode } from "react";

export const inputCls =
  "w-full rounded border border-surface-line bg-surface-sunken px-2 py-1.5 text-sm text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none";

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

export function Toggle({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (v: boolean) => void; hint?: string }) {
  return (
    <label title={hint} className="flex cursor-pointer items-center gap-2 text-xs text-zinc-300">
      <input type="checkbox" role="switch" checked={checked} onChange={(e) => onChange(e.target.checked)} className="h-3.5 w-3.5 accent-sky-500" />
      {label}
    </label>
  );
}
