import Link from "next/link";
import type { StreamSummary } from "@/lib/dashboard-api";
import RiskBadge from "@/components/ui/RiskBadge";
import { formatDateTime } from "@/components/ui/format";
import { KindChip } from "./bits";
import { endReasonText } from "./end-reasons";
import { streamHref } from "./StreamCard";

/** Ended streams, newest end first, one line each with why they ended. */
export default function EndedStreams({ streams }: { streams: StreamSummary[] }) {
  if (streams.length === 0) return <p className="px-3 py-4 text-center text-xs text-zinc-500">No ended streams.</p>;
  return (
    <ul className="divide-y divide-surface-line">
      {streams.map((s) => {
        const failed = s.endErrorCode !== null;
        return (
          <li
            key={s.requestId}
            data-testid="stream-card"
            data-request-id={s.requestId}
            data-status={s.status}
            className="grid items-center gap-x-3 gap-y-1 px-3 py-1.5 text-xs md:grid-cols-[minmax(0,1fr)_3.5rem_5rem_minmax(0,14rem)_9rem]"
          >
            <Link href={streamHref(s.requestId)} className="truncate text-zinc-200 hover:text-sky-300" title={s.url}>{s.title ?? s.url}</Link>
            <KindChip kind={s.kind} />
            <span data-testid="worst-risk" data-level={s.worstRisk ?? ""}>{s.worstRisk ? <RiskBadge level={s.worstRisk} size="sm" /> : <span className="text-zinc-600">no results</span>}</span>
            <span data-testid="end-reason" data-error-code={s.endErrorCode ?? ""} title={s.endReason ?? undefined} className={`truncate ${failed ? "text-risk-reject" : "text-zinc-400"}`}>
              {endReasonText(s.endErrorCode, s.endReason)}
              {failed && <span className="font-mono text-zinc-500"> · {s.endErrorCode}</span>}
            </span>
            <span className="tabular-nums text-zinc-500">{formatDateTime(s.endedAt)}</span>
          </li>
        );
      })}
    </ul>
  );
}
