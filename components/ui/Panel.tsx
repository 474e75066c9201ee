import type { ReactNode } from "react";

export default function Panel({ title, actions, children, className = "" }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`rounded-md border border-surface-line bg-surface-raised ${className}`}>
      {title !== undefined && (
        <header className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-b border-surface-line px-3 py-2">
          <h2 className="min-w-0 text-xs font-semibold uppercase tracking-wider text-zinc-400">{title}</h2>
          {actions}
        </header>
      )}
      {children}
    </section>
  );
}
