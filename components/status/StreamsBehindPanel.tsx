import Link from "next/link";
import type { StreamBehind } from "@/lib/status";
import Panel from "@/components/ui/Panel";
import { behindText } from "@/lib/stream-state";

/** Running streams whose detection fell behind, each with what the last minute looked like. */
export default function StreamsBehindPanel({ streams }: { streams: StreamBehind[] }) {
  return (
    <Panel title={`Streams with detection behind (${streams.length})`}>
      {streams.length === 0 ? (
        <p data-testid="streams-behind-none" className="p-3 text-xs text-zinc-500">Every running stream had its frames checked in the last minute.</p>
      ) : (
        <ul data-testid="streams-behind" className="divide-y divide-surface-line text-xs">
          {streams.map((s) => (
            <li key={s.requestId} data-testid="stream-behind" data-request-id={s.requestId} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 px-3 py-1.5">
              <Link href={`/streams/${encodeURIComponent(s.requestId)}`} className="min-w-0 truncate text-zinc-200 hover:text-sky-300" title={s.url}>{s.title ?? s.url}</Link>
              <span className="text-risk-review">{behindText({ frames: s.framesLastMinute, notChecked: s.notCheckedLastMinute })}</span>
              {s.detectStep !== null && <span className="text-zinc-500">detectStep {s.detectStep}</span>}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
