/** Shown where the signed-in role may look but not change (the server refuses the change too). */
export default function ReadOnlyNote({ what }: { what: string }) {
  return (
    <p data-testid="read-only-note" className="rounded border border-surface-line bg-surface-sunken px-3 py-2 text-xs text-zinc-400">
      Read-only: only supervisors change {what}.
    </p>
  );
}
