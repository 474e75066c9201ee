/** Placeholder rows while a list or a detail loads (a slow server must not look like an empty one). */
export default function Skeleton({ rows = 4, label, testId = "loading-skeleton", tall = false }: { rows?: number; label: string; testId?: string; tall?: boolean }) {
  return (
    <div role="status" aria-busy="true" aria-label={label} data-testid={testId} className="space-y-2 p-3">
      {tall && <div className="aspect-video w-full animate-pulse rounded bg-zinc-700/30" />}
      {Array.from({ length: rows }, (_, n) => (
        <div key={n} className="space-y-1.5">
          <div className="h-3 w-2/3 animate-pulse rounded bg-zinc-700/40" />
          <div className="h-2.5 w-5/6 animate-pulse rounded bg-zinc-700/25" />
        </div>
      ))}
      <span className="text-[11px] text-zinc-500">{label}</span>
    </div>
  );
}
