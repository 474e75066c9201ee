import type { QueueDepths } from "@/lib/status";
import Panel from "@/components/ui/Panel";

const ITEMS: Array<{ key: keyof QueueDepths; label: string }> = [
  { key: "filesWaiting", label: "Files waiting" },
  { key: "filesProcessing", label: "Files processing" },
  { key: "streamsRunning", label: "Streams running" },
  { key: "callbacksPending", label: "Callbacks pending" },
];

export default function QueuesPanel({ queues }: { queues: QueueDepths | null }) {
  return (
    <Panel title="Queues">
      {queues ? (
        <dl className="grid grid-cols-2 gap-px bg-surface-line sm:grid-cols-4">
          {ITEMS.map((i) => (
            <div key={i.key} className="bg-surface-raised px-3 py-2">
              <dt className="text-[11px] text-zinc-500">{i.label}</dt>
              <dd className="font-mono text-lg text-zinc-100" data-testid={`queue-${i.key}`}>{queues[i.key]}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="p-3 text-xs text-zinc-500">This dashboard drives a remote service: its queues are not visible here.</p>
      )}
    </Panel>
  );
}
