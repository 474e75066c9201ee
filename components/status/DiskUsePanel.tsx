import type { DiskCategory, DiskUse } from "@/lib/status";
import Panel from "@/components/ui/Panel";
import { formatBytes } from "./format";

const CATEGORIES: Array<{ key: DiskCategory; label: string; color: string; note: string }> = [
  { key: "frames", label: "Frames", color: "bg-sky-500", note: "captured JPEGs (DATA_DIR/media)" },
  { key: "audioClips", label: "Audio clips", color: "bg-violet-500", note: "10 s WAV segments (DATA_DIR/media)" },
  { key: "database", label: "Database", color: "bg-amber-500", note: "tasks, results, outbox, dashboard records" },
  { key: "referenceLists", label: "Reference lists", color: "bg-emerald-500", note: "face gallery, hash bank, audio references, keyword lists, policy" },
  { key: "other", label: "Other", color: "bg-zinc-500", note: "model caches, secrets, downloads in progress" },
];

export default function DiskUsePanel({ disk }: { disk: DiskUse }) {
  const total = Math.max(1, disk.totalBytes);
  const volume = disk.volume;
  const usedOnVolume = volume ? volume.sizeBytes - volume.freeBytes : 0;
  return (
    <Panel title="Disk use" actions={<span className="font-mono text-[11px] text-zinc-500">{disk.dataDir}</span>}>
      <div className="space-y-3 p-3">
        <div className="flex h-2 overflow-hidden rounded bg-surface-sunken" aria-hidden>
          {CATEGORIES.map((c) => (
            <span key={c.key} className={c.color} style={{ width: `${(disk.bytes[c.key] / total) * 100}%` }} />
          ))}
        </div>
        <table className="w-full text-left text-xs" data-testid="disk-use">
          <tbody>
            {CATEGORIES.map((c) => (
              <tr key={c.key} data-testid="disk-category" data-category={c.key} data-bytes={disk.bytes[c.key]} className="border-t border-surface-line first:border-t-0">
                <td className="py-1.5 pr-2">
                  <span className={`mr-2 inline-block h-2 w-2 rounded-sm ${c.color}`} />
                  <span className="text-zinc-200">{c.label}</span>
                  {c.key === "database" && disk.databaseExternal ? <span className="ml-1 text-zinc-500">(PostgreSQL, not on this volume)</span> : null}
                </td>
                <td className="py-1.5 pr-2 text-zinc-500">{c.note}</td>
                <td className="py-1.5 text-right font-mono text-zinc-200">{formatBytes(disk.bytes[c.key])}</td>
              </tr>
            ))}
            <tr className="border-t border-surface-line font-semibold">
              <td className="py-1.5 text-zinc-200" colSpan={2}>Total</td>
              <td className="py-1.5 text-right font-mono text-zinc-100" data-testid="disk-total">{formatBytes(disk.totalBytes)}</td>
            </tr>
          </tbody>
        </table>
        {volume ? (
          <div className="space-y-1" data-testid="volume" data-free-bytes={volume.freeBytes}>
            <div className="flex justify-between text-xs">
              <span className="text-zinc-400">Volume</span>
              <span className="text-zinc-200">
                <span className="font-mono" data-testid="free-space">{formatBytes(volume.freeBytes)}</span> free of <span className="font-mono">{formatBytes(volume.sizeBytes)}</span>
              </span>
            </div>
            <div className="h-1.5 overflow-hidden rounded bg-surface-sunken">
              <div className={`h-full ${volume.freeBytes / Math.max(1, volume.sizeBytes) < 0.1 ? "bg-risk-reject" : "bg-sky-600"}`} style={{ width: `${(usedOnVolume / Math.max(1, volume.sizeBytes)) * 100}%` }} />
            </div>
          </div>
        ) : (
          <p className="text-xs text-zinc-500">Free space of the volume could not be read.</p>
        )}
      </div>
    </Panel>
  );
}
