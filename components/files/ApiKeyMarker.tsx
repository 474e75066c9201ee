import type { TaskOrigin } from "@/lib/dashboard-api";

/** "API · <key name>" on a file or stream submitted through the public API (never the key itself); nothing otherwise. */
export default function ApiKeyMarker({ item }: { item: { origin: TaskOrigin; keyName: string | null } }) {
  if (item.origin !== "api") return null;
  const name = item.keyName ?? "unnamed key";
  return (
    <span
      data-testid="api-key-marker"
      data-key-name={name}
      title={`Submitted through the public API with the accessKey named "${name}"`}
      className="inline-block min-w-0 max-w-full shrink-0 truncate rounded border border-sky-700/60 bg-sky-500/10 px-1.5 py-0.5 text-[10px] font-medium text-sky-300"
    >
      API · {name}
    </span>
  );
}
