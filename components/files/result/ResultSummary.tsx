import type { RiskLevel } from "@/lib/dashboard-api";
import { fileCoverage, GAP_REASON_TEXT, resultFactsOf, type FileCoverage, type FileRequestedTypes } from "@/lib/file-coverage";
import FileVerdictBadge from "../FileVerdictBadge";
import { formatMediaTime, formatSeconds } from "@/components/ui/format";
import { asRiskLevel, RISK_ORDER, riskStyles, worseOf } from "@/components/ui/risk";
import { labelName } from "./frame-info";
import type { FileResult, RiskCore } from "./types";

interface Reason {
  label: string;
  description: string;
  level: RiskLevel;
  frames: number;
  segments: number;
  firstAt: number;
}

/** Non-PASS frames and segments grouped by label, worst first: the "why" of the overall level. */
export function summariseReasons(result: FileResult): Reason[] {
  const byLabel = new Map<string, Reason>();
  const add = (core: RiskCore, at: number, kind: "frames" | "segments") => {
    const level = asRiskLevel(core.riskLevel);
    if (level === "PASS") return;
    const label = labelName(core);
    const r = byLabel.get(label) ?? { label, description: core.riskDescription, level, frames: 0, segments: 0, firstAt: at };
    r.level = worseOf(r.level, level);
    r[kind] += 1;
    r.firstAt = Math.min(r.firstAt, at);
    byLabel.set(label, r);
  };
  for (const f of result.frameDetail ?? []) add(f, f.time, "frames");
  for (const s of result.audioDetail ?? []) add(s, s.audioStarttime ?? 0, "segments");
  return [...byLabel.values()].sort(
    (a, b) => RISK_ORDER.indexOf(b.level) - RISK_ORDER.indexOf(a.level) || b.frames + b.segments - (a.frames + a.segments),
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt className="text-[10px] uppercase tracking-wider text-zinc-500">{label}</dt>
      <dd className="font-mono text-sm tabular-nums text-zinc-200">{value}</dd>
    </div>
  );
}

function CoverageGaps({ coverage }: { coverage: FileCoverage }) {
  if (coverage.gaps.length === 0 && !(coverage.hasAudio === false && !coverage.requestKnown)) return null;
  return (
    <div data-testid="coverage-gaps" data-coverage={coverage.state} className="space-y-1 rounded border border-zinc-700 bg-zinc-800/40 px-3 py-2 text-xs text-zinc-300">
      <p className="font-semibold">{coverage.state === "not-checked" ? "Nothing requested was checked" : coverage.state === "partial" ? "Partly checked" : "Coverage unknown"} — the verdict says nothing about:</p>
      <ul className="list-inside list-disc">
        {coverage.gaps.map((g) => (
          <li key={g.reason} data-testid={g.reason === "no-detector" ? "not-applied" : `gap-${g.reason}`} data-reason={g.reason}>
            <span className="font-mono">{g.types.join(", ")}</span> — {GAP_REASON_TEXT[g.reason]}
          </li>
        ))}
        {coverage.hasAudio === false && !coverage.requestKnown && <li data-testid="gap-no-audio-track">the file has no audio track: audio types, if any were requested, were not checked</li>}
      </ul>
    </div>
  );
}

/** `requested` undefined: still loading (the verdict says so instead of a bare PASS); null: not known here. */
export default function ResultSummary({ result, requested }: { result: FileResult; requested: FileRequestedTypes | null | undefined }) {
  const level = asRiskLevel(result.riskLevel);
  const reasons = summariseReasons(result);
  const aux = result.auxInfo ?? {};
  const facts = resultFactsOf(result);
  const coverage = requested === undefined ? null : fileCoverage(requested, facts);
  return (
    <div data-testid="result-verdict" className="space-y-3 p-3">
      <div className="flex flex-wrap items-start gap-6">
        <div className="flex items-center gap-3">
          <FileVerdictBadge level={level} coverage={coverage} size="lg" />
          <span className="text-xs text-zinc-400">overall (worst of all frames and segments)</span>
        </div>
        <dl className="ml-auto grid grid-cols-2 gap-x-6 gap-y-1 sm:grid-cols-4">
          <Stat label="Duration" value={formatSeconds(aux.time)} />
          <Stat label="Frames grabbed" value={String(aux.billingImgNum ?? "—")} />
          <Stat label="Frames returned" value={String(aux.frameCount ?? result.frameDetail?.length ?? 0)} />
          <Stat label="Audio" value={facts.hasAudio === false ? "no track" : formatSeconds(aux.billingAudioDuration)} />
        </dl>
      </div>
      {reasons.length > 0 ? (
        <ul data-testid="risk-reasons" className="flex flex-wrap gap-2">
          {reasons.map((r) => (
            <li key={r.label} className={`rounded border px-2 py-1 text-xs ${riskStyles[r.level].border}`} title={r.description}>
              <span className={`font-semibold ${riskStyles[r.level].text}`}>{r.label}</span>
              <span className="text-zinc-400">
                {" "}· {[r.frames ? `${r.frames} frame${r.frames > 1 ? "s" : ""}` : "", r.segments ? `${r.segments} audio` : ""].filter(Boolean).join(", ")} · from {formatMediaTime(r.firstAt)}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p data-testid="no-risks" className="text-xs text-zinc-400">
          {coverage?.state === "not-checked" ? "Nothing was found because nothing requested was checked." : `No risky frames or audio segments${coverage && coverage.gaps.length > 0 ? " in what was checked" : ""}.`}
        </p>
      )}
      {coverage && <CoverageGaps coverage={coverage} />}
    </div>
  );
}
