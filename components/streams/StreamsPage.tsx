"use client";

import { useState } from "react";
import { useStreamsQuery } from "@/components/hooks/queries/useStreamsQuery";
import { useStreamsLive } from "@/components/hooks/useStreamsLive";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import EndedStreams from "./EndedStreams";
import { INITIAL_STREAM_FORM, type StreamFormState } from "./form-model";
import SamplePanel from "./SamplePanel";
import StreamCard from "./StreamCard";
import StreamStartForm from "./StreamStartForm";
import { useCan } from "@/components/auth/UserContext";

function Wall() {
  const pollMs = useStreamsLive();
  const query = useStreamsQuery(pollMs);
  if (query.isPending) return <p data-testid="stream-wall" data-state="loading" className="text-xs text-zinc-500">Loading streams…</p>;
  if (query.data === undefined) return <div data-testid="stream-wall" data-state="error"><ErrorNote prefix="Could not load streams:" error={query.error} /></div>;
  const running = query.data.streams.filter((s) => s.status === "running").sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const ended = query.data.streams
    .filter((s) => s.status === "ended")
    .sort((a, b) => (b.endedAt ?? b.startedAt).localeCompare(a.endedAt ?? a.startedAt));
  return (
    <div data-testid="stream-wall" data-state="ready" className="space-y-4">
      {query.isError && <ErrorNote prefix="Refresh failed, showing what was loaded:" error={query.error} />}
      <section>
        <h2 className="mb-2 text-xs font-semibold uppercase tracking-wider text-zinc-400">Live now ({running.length})</h2>
        {running.length === 0 ? (
          <p className="rounded-md border border-dashed border-surface-line px-3 py-6 text-center text-xs text-zinc-500">
            No stream is being moderated. Start one above, or start the sample stream.
          </p>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
            {running.map((s) => <StreamCard key={s.requestId} stream={s} />)}
          </div>
        )}
      </section>
      <Panel title={`Ended (${ended.length})`}>
        <EndedStreams streams={ended} />
      </Panel>
    </div>
  );
}

/** /streams: start a stream, and the live wall of every stream being moderated. */
export default function StreamsPage() {
  const [form, setForm] = useState<StreamFormState>(INITIAL_STREAM_FORM);
  const set = (patch: Partial<StreamFormState>) => setForm((s) => ({ ...s, ...patch }));
  const canStart = useCan("stream:start");
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-lg font-semibold text-zinc-100">Live streams</h1>
        <p className="text-xs text-zinc-500">Moderate RTMP, HTTP-FLV and HLS streams; results and stream ends arrive live.</p>
      </div>
      {canStart && (
        <Panel title="Start a stream">
          <StreamStartForm state={form} set={set} />
          <SamplePanel onUseUrl={(url) => set({ url })} />
        </Panel>
      )}
      <Wall />
    </div>
  );
}
