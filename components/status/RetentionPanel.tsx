import type { ReactNode } from "react";
import type { RetentionStatus } from "@/lib/status";
import Panel from "@/components/ui/Panel";
import { formatDateTime } from "@/components/ui/format";
import { formatBytes, formatHours } from "./format";

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="flex justify-between gap-4 border-t border-surface-line py-1.5 first:border-t-0">
      <dt className="text-zinc-400">{label}</dt>
      <dd className="text-right text-zinc-200" data-testid={testId}>{children}</dd>
    </div>
  );
}

export default function RetentionPanel({ retention }: { retention: RetentionStatus }) {
  const last = retention.lastSweep;
  return (
    <Panel title="Retention">
      <dl className="p-3 text-xs">
        <Row label="Results, frames and audio clips kept for" testId="retention-hours">{formatHours(retention.retentionHours)}</Row>
        <Row label="Sweep every">{formatHours(retention.sweepMinutes / 60)}</Row>
        <Row label="Last sweep" testId="last-sweep">{last ? formatDateTime(last.at) : "not yet"}</Row>
        {last && (
          <Row label="It deleted" testId="last-sweep-deleted">
            {last.error ? (
              <span className="text-red-300">failed: {last.error}</span>
            ) : (
              <>
                {last.tasks} task{last.tasks === 1 ? "" : "s"}, {last.dashboardRecords} dashboard record{last.dashboardRecords === 1 ? "" : "s"}, {last.mediaDirs} media folder{last.mediaDirs === 1 ? "" : "s"} ({formatBytes(last.bytes)})
              </>
            )}
          </Row>
        )}
        <Row label="Next sweep" testId="next-sweep">{retention.nextSweepAt ? formatDateTime(retention.nextSweepAt) : "—"}</Row>
      </dl>
      <p className="border-t border-surface-line px-3 py-2 text-[11px] text-zinc-500">
        Running streams, files still in progress and callbacks still being retried are never deleted.
      </p>
    </Panel>
  );
}
