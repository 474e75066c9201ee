"use client";

import ErrorNote from "@/components/ui/ErrorNote";
import { formatDateTime } from "@/components/ui/format";
import ClusterPanel from "./ClusterPanel";
import DiskUsePanel from "./DiskUsePanel";
import QueuesPanel from "./QueuesPanel";
import RetentionPanel from "./RetentionPanel";
import StreamsBehindPanel from "./StreamsBehindPanel";
import { useStatusQuery } from "./useStatusQuery";

export default function StatusPage() {
  const query = useStatusQuery();
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-zinc-100">Status</h1>
        <p className="text-xs text-zinc-500">
          Disk use of the data directory, the retention job, the work in progress, live streams whose detection is behind and, in scaled mode, the workers and which one holds each stream.
          {query.data ? ` Measured ${formatDateTime(query.data.disk.measuredAt)}.` : ""}
        </p>
      </div>
      {query.isPending && <p className="text-xs text-zinc-500">Loading…</p>}
      {query.isError && <ErrorNote prefix="Could not load the status:" error={query.error} />}
      {query.data && (
        <div className="grid gap-4 lg:grid-cols-2">
          <DiskUsePanel disk={query.data.disk} />
          <div className="space-y-4">
            <RetentionPanel retention={query.data.retention} />
            <QueuesPanel queues={query.data.queues} />
            <StreamsBehindPanel streams={query.data.streamsBehind ?? []} />
            {query.data.cluster && <ClusterPanel cluster={query.data.cluster} />}
          </div>
        </div>
      )}
    </div>
  );
}
