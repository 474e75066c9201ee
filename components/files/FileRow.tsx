import Link from "next/link";
import type { FileSummary } from "@/lib/dashboard-api";
import ProgressBar from "@/components/ui/ProgressBar";
import StatusPill from "@/components/ui/StatusPill";
import { formatDateTime } from "@/components/ui/format";
import { riskStyles } from "@/components/ui/risk";
import { summariseGaps } from "@/lib/file-coverage";
import ApiKeyMarker from "./ApiKeyMarker";
import FileVerdictBadge from "./FileVerdictBadge";

function Outcome({ file }: { file: FileSummary }) {
  if (file.status === "processing" || file.status === "queued") {
    return <ProgressBar done={file.framesDone} total={file.framesTotal} label={`frames of ${file.btId}`} />;
  }
  if (file.status === "done" && file.riskLevel !== null) {
    const gaps = file.coverage && file.coverage.gaps.length > 0 ? summariseGaps(file.coverage) : "";
    return (
      <div className="min-w-0 space-y-0.5">
        <FileVerdictBadge level={file.riskLevel} coverage={file.coverage} />
        {gaps && <div data-testid="coverage-gaps" className="truncate text-[10px] text-zinc-400" title={gaps}>not checked: {gaps}</div>}
      </div>
    );
  }
  if (file.status === "failed") {
    return <span className="text-xs text-risk-reject">failed{file.code !== null ? ` · code ${file.code}` : ""}</span>;
  }
  return <span className="text-xs text-zinc-500">—</span>;
}

export default function FileRow({ file }: { file: FileSummary }) {
  // an API file by its requestId: two accessKeys may use the same btId
  const href = `/files/${encodeURIComponent(file.origin === "api" ? file.requestId : file.btId)}`;
  const accent = file.status === "done" && file.riskLevel !== null && file.riskLevel !== "PASS" ? riskStyles[file.riskLevel].border : "border-transparent";
  return (
    <tr data-testid="file-row" data-btid={file.btId} data-status={file.status} data-origin={file.origin} className="border-t border-surface-line hover:bg-white/[0.02]">
      <td className={`max-w-0 border-l-2 py-2 pl-3 pr-2 ${accent}`}>
        <div className="flex min-w-0 items-center gap-2">
          <Link href={href} className="block min-w-0 truncate font-medium text-zinc-100 hover:text-sky-300" title={file.url}>
            {file.title ?? file.url}
          </Link>
          <ApiKeyMarker item={file} />
        </div>
        {file.title !== null && <div className="truncate text-[11px] text-zinc-500" title={file.url}>{file.url}</div>}
      </td>
      <td className="px-2 py-2 font-mono text-[11px] text-zinc-400">
        <span className="block max-w-44 truncate" title={file.btId}>{file.btId}</span>
      </td>
      <td className="px-2 py-2"><StatusPill status={file.status} /></td>
      <td className="w-44 px-2 py-2"><Outcome file={file} /></td>
      <td className="whitespace-nowrap px-2 py-2 text-[11px] tabular-nums text-zinc-400">{formatDateTime(file.createdAt)}</td>
      <td className="px-3 py-2 text-right">
        <Link href={href} className="text-xs text-sky-300 hover:underline">Result →</Link>
      </td>
    </tr>
  );
}
