/** framesDone/framesTotal bar; an unknown total (0) shows an indeterminate sweep. */
export default function ProgressBar({ done, total, label }: { done: number; total: number; label?: string }) {
  const known = total > 0;
  const pct = known ? Math.min(100, Math.round((done / total) * 100)) : 0;
  return (
    <div className="flex min-w-0 items-center gap-2" data-testid="progress">
      <div
        role="progressbar"
        aria-label={label ?? "progress"}
        aria-valuemin={0}
        aria-valuemax={known ? total : undefined}
        aria-valuenow={known ? done : undefined}
        className="relative h-1.5 w-full min-w-16 overflow-hidden rounded-full bg-zinc-800"
      >
        {known ? (
          <div className="h-full rounded-full bg-sky-500 transition-[width] duration-300" style={{ width: `${pct}%` }} />
        ) : (
          <div className="progress-indeterminate absolute inset-y-0 w-2/5 rounded-full bg-sky-500/70" />
        )}
      </div>
      <span className="shrink-0 font-mono text-[11px] tabular-nums text-zinc-400">
        {known ? `${done}/${total}` : `${done}/?`}
      </span>
    </div>
  );
}
