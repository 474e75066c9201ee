"use client";

import { useEffect, useId, useState } from "react";
import { useOpenIncidentsLive } from "@/components/alerts/useOpenIncidents";
import { useCan } from "@/components/auth/UserContext";
import { useStreamsQuery } from "@/components/hooks/queries/useStreamsQuery";
import { useStreamsLive } from "@/components/hooks/useStreamsLive";
import ErrorNote from "@/components/ui/ErrorNote";
import Panel from "@/components/ui/Panel";
import { shownOnWall, WallFilterBar, type WallFilter } from "./bits";
import EndedStreams from "./EndedStreams";
import { INITIAL_STREAM_FORM, type StreamFormState } from "./form-model";
import SamplePanel from "./SamplePanel";
import StreamCard from "./StreamCard";
import { useWallPreviews } from "@/components/preview/useWallPreviews";
import StreamStartForm from "./StreamStartForm";

function Wall({ canStart }: { canStart: boolean }) {
  const pollMs = useStreamsLive();
  useOpenIncidentsLive();
  const query = useStreamsQuery(pollMs);
  const [filter, setFilter] = useState<WallFilter>({ only: [], basis: "now" });
  const [previews, setPreviews] = useWallPreviews();
  if (query.isPending) return <p data-testid="stream-wall" data-state="loading" className="text-xs text-zinc-500">Loading streams…</p>;
  if (query.data === undefined) return <div data-testid="stream-wall" data-state="error"><ErrorNote prefix="Could not load streams:" error={query.error} /></div>;
  const running = query.data.streams.filter((s) => s.status === "running").sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const shown = running.filter((s) => shownOnWall(s, filter));
  const ended = query.data.streams
    .filter((s) => s.status === "ended")
    .sort((a, b) => (b.endedAt ?? b.startedAt).localeCompare(a.endedAt ?? a.startedAt));
  return (
    <div data-testid="stream-wall" data-state="ready" className="space-y-4">
      {query.isError && <ErrorNote prefix="Refresh failed, showing what was loaded:" error={query.error} />}
      <section>
        <div className="mb-2 flex flex-wrap items-center gap-x-4 gap-y-1">
          <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Running ({running.length})</h2>
          {running.length > 0 && <WallFilterBar filter={filter} onChange={setFilter} shown={shown.length} total={running.length} />}
          {running.length > 0 && (
            <label className="ml-auto flex items-center gap-1.5 text-xs text-zinc-400" title="Muted live previews on the cards (only cards on screen play); off: the latest captured frame">
              <input type="checkbox" data-testid="wall-previews" checked={previews} onChange={(e) => setPreviews(e.target.checked)} />
              Live previews
            </label>
          )}
        </div>
        {running.length === 0 ? (
          <p className="rounded-md border border-dashed border-surface-line px-3 py-6 text-center text-xs text-zinc-500">
            No stream is being moderated.{canStart && " Start one with New stream, or start the sample stream from there."}
          </p>
        ) : shown.length === 0 ? (
          <p data-testid="wall-none-shown" className="rounded-md border border-dashed border-surface-line px-3 py-6 text-center text-xs text-zinc-500">
            No live stream is at the chosen levels right now.
          </p>
        ) : (
          // 4 tiles a row on a 1440 px screen, 4 rows in 900 px: 16 streams at a glance
          <div data-testid="stream-grid" className="grid gap-2 [grid-template-columns:repeat(auto-fill,minmax(17rem,1fr))]">
            {shown.map((s) => <StreamCard key={s.requestId} stream={s} preview={previews} />)}
          </div>
        )}
      </section>
      <Panel title={`Ended (${ended.length})`}>
        <EndedStreams streams={ended} />
      </Panel>
    </div>
  );
}

/** The start form and the sample stream in a side drawer; the wall stays usable beside it. */
function NewStreamDrawer({ id, open, onClose }: { id: string; open: boolean; onClose: () => void }) {
  const [form, setForm] = useState<StreamFormState>(INITIAL_STREAM_FORM);
  const set = (patch: Partial<StreamFormState>) => setForm((s) => ({ ...s, ...patch }));
  useEffect(() => {
    if (!open) return;
    const esc = (e: KeyboardEvent) => e.key === "Escape" && onClose();
    document.addEventListener("keydown", esc);
    return () => document.removeEventListener("keydown", esc);
  }, [open, onClose]);
  return (
    <aside
      id={id}
      role="dialog"
      aria-label="New stream"
      data-testid="new-stream-drawer"
      hidden={!open}
      className="@container fixed bottom-0 right-0 top-11 z-30 w-[min(44rem,100vw)] overflow-y-auto border-l border-surface-line bg-surface-raised shadow-2xl shadow-black/60"
    >
      <header className="sticky top-0 z-10 flex items-center justify-between border-b border-surface-line bg-surface-raised px-3 py-2">
        <h2 className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Start a stream</h2>
        <button type="button" data-testid="new-stream-close" onClick={onClose} aria-label="Close the form" className="rounded px-2 text-zinc-400 hover:text-zinc-100">
          ×
        </button>
      </header>
      <StreamStartForm state={form} set={set} />
      <SamplePanel onUseUrl={(url, source = "url") => set({ url, source })} />
    </aside>
  );
}

/** /streams: the live wall of every stream being moderated; New stream opens the start form beside it. */
export default function StreamsPage() {
  const canStart = useCan("stream:start");
  const [drawer, setDrawer] = useState(false);
  const drawerId = useId();
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h1 className="text-lg font-semibold text-zinc-100">Live streams</h1>
        <p className="text-xs text-zinc-500">RTMP, HTTP-FLV, HLS and WebRTC (WHEP); results and stream ends arrive live.</p>
        {canStart && (
          <button
            type="button"
            data-testid="new-stream"
            aria-expanded={drawer}
            aria-controls={drawerId}
            onClick={() => setDrawer((o) => !o)}
            className="ml-auto rounded bg-sky-600 px-3 py-1 text-xs font-medium text-white hover:bg-sky-500"
          >
            New stream
          </button>
        )}
      </div>
      {canStart && <NewStreamDrawer id={drawerId} open={drawer} onClose={() => setDrawer(false)} />}
      <Wall canStart={canStart} />
    </div>
  );
}
