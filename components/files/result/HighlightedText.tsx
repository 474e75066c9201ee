import { highlightPieces } from "./highlight";
import type { MatchedList, RiskSegment } from "./types";

interface Props {
  text: string;
  matchedLists?: MatchedList[];
  riskSegments?: RiskSegment[];
  testId?: string;
  className?: string;
}

/** Text with matched words marked; each mark's tooltip names the list that matched it. */
export default function HighlightedText({ text, matchedLists, riskSegments, testId, className = "" }: Props) {
  const pieces = highlightPieces(text, matchedLists, riskSegments);
  return (
    <p data-testid={testId} className={`whitespace-pre-wrap break-words ${className}`}>
      {pieces.map((p, i) =>
        p.match?.kind === "word" ? (
          <mark
            key={i}
            data-list={p.match.list}
            title={`matched "${p.match.word}" in list ${p.match.list}`}
            className="rounded-sm bg-risk-reject/25 text-red-100 underline decoration-risk-reject decoration-2 underline-offset-2"
          >
            {p.text}
          </mark>
        ) : p.match ? (
          <span key={i} data-segment title="inside a risk segment" className="bg-risk-review/10 text-amber-100">
            {p.text}
          </span>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
    </p>
  );
}

/** "Why it matched": list name → words. */
export function MatchLegend({ matchedLists = [], riskSegments = [] }: { matchedLists?: MatchedList[]; riskSegments?: RiskSegment[] }) {
  if (matchedLists.length === 0 && riskSegments.length === 0) return null;
  return (
    <ul data-testid="match-legend" className="mt-2 space-y-1 text-xs">
      {matchedLists.map((l) => (
        <li key={l.name} className="flex flex-wrap items-baseline gap-1.5">
          <span className="text-zinc-500">list</span>
          <span className="font-medium text-zinc-200">{l.name}</span>
          <span className="text-zinc-500">→</span>
          {(l.words ?? []).map((w) => (
            <code key={w.word} className="rounded bg-risk-reject/15 px-1 text-red-200">{w.word}</code>
          ))}
        </li>
      ))}
      {riskSegments.length > 0 && (
        <li className="flex flex-wrap items-baseline gap-1.5">
          <span className="text-zinc-500">risk segments →</span>
          {riskSegments.map((s) => (
            <code key={s.segment} className="rounded bg-risk-review/15 px-1 text-amber-200">{s.segment}</code>
          ))}
        </li>
      )}
    </ul>
  );
}
