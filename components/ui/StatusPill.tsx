import type { FileSummary } from "@/lib/dashboard-api";

const STYLES: Record<FileSummary["status"], string> = {
  queued: "bg-zinc-700/40 text-zinc-300",
  processing: "bg-sky-500/15 text-sky-300",
  done: "bg-zinc-700/30 text-zinc-300",
  failed: "bg-risk-reject/15 text-risk-reject",
};

export default function StatusPill({ status }: { status: FileSummary["status"] }) {
  return (
    <span data-testid="file-status" className={`inline-flex rounded px-1.5 py-0.5 text-[11px] font-medium ${STYLES[status]}`}>
      {status}
    </span>
  );
}
