import Link from "next/link";
import type { ClusterStatus } from "@/lib/status";
import Panel from "@/components/ui/Panel";

const STATE_TONE: Record<string, string> = {
  held: "text-zinc-300",
  "handing over": "text-sky-300",
  closing: "text-zinc-400",
  "waiting for a worker": "text-risk-review",
};

/** Scaled mode: the workers (capacity, streams held, detection behind, heartbeat) and every running stream's holder. */
export default function ClusterPanel({ cluster }: { cluster: ClusterStatus }) {
  const alive = cluster.workers.filter((w) => w.alive);
  return (
    <Panel title={`Cluster: ${alive.length} worker${alive.length === 1 ? "" : "s"}, ${cluster.streams.length} stream${cluster.streams.length === 1 ? "" : "s"}`}>
      {cluster.workers.length === 0 ? (
        <p data-testid="cluster-no-workers" className="p-3 text-xs text-risk-review">No worker is running: new streams are refused until one starts (<code>npm run worker</code>).</p>
      ) : (
        <table data-testid="cluster-workers" className="w-full text-left text-xs">
          <thead className="text-[11px] text-zinc-500">
            <tr>
              <th className="px-3 py-1 font-normal">Worker</th>
              <th className="px-3 py-1 font-normal">Streams</th>
              <th className="px-3 py-1 font-normal">Detection</th>
              <th className="px-3 py-1 font-normal">Heartbeat</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-surface-line">
            {cluster.workers.map((w) => (
              <tr key={w.name} data-testid="cluster-worker" data-name={w.name} data-alive={w.alive} className={w.alive ? "text-zinc-200" : "text-zinc-500"}>
                <td className="px-3 py-1 font-mono">{w.name}</td>
                <td className="px-3 py-1">{w.held} of {w.capacity === 0 ? "no limit" : w.capacity}</td>
                <td className={`px-3 py-1 ${w.behind ? "text-risk-review" : ""}`}>{w.behind ? `behind on ${w.behind}: takes no new stream` : "keeps up"}</td>
                <td className="px-3 py-1">{w.alive ? `${w.heartbeatAgeSec} s ago` : `gone (${Math.round(w.heartbeatAgeSec)} s ago)`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cluster.streams.length > 0 && (
        <ul data-testid="cluster-streams" className="divide-y divide-surface-line border-t border-surface-line text-xs">
          {cluster.streams.map((s) => (
            <li key={s.requestId} data-testid="cluster-stream" data-request-id={s.requestId} data-holder={s.holder ?? ""} data-state={s.state} className="flex flex-wrap items-baseline gap-x-3 gap-y-0.5 px-3 py-1.5">
              {s.title !== null ? (
                <Link href={`/streams/${encodeURIComponent(s.requestId)}`} className="min-w-0 truncate text-zinc-200 hover:text-sky-300">{s.title}</Link>
              ) : (
                <span className="min-w-0 truncate font-mono text-zinc-400" title="a task of a public accessKey">{s.kind} {s.requestId.slice(0, 12)}…</span>
              )}
              <span className={STATE_TONE[s.state] ?? "text-zinc-300"}>
                {s.state === "held" ? `on ${s.holder}` : s.state === "handing over" ? `on ${s.holder}, handing over to ${s.handoverTo ?? "a worker with room"}` : s.state}
              </span>
              {s.leaseLeftSec !== null && <span className="text-zinc-500">lease {s.leaseLeftSec.toFixed(1)} s of {cluster.leaseSec}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className="border-t border-surface-line px-3 py-2 text-[11px] text-zinc-500">
        Read from the shared store: the same on every node. A worker that stops renewing for {cluster.leaseSec} s is gone; its streams go to a worker with room.
      </p>
    </Panel>
  );
}
