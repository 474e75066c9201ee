import type { AudioRiskDetail } from "@/components/files/result/types";

/** Why an audio segment matched a reference list: the track and where in it. */
export default function TrackMatch({ detail }: { detail: AudioRiskDetail | undefined }) {
  const m = detail?.matchedTrack;
  if (!m) return null;
  return (
    <p data-testid="track-match" className="text-[11px] text-risk-reject">
      Matches {m.entry} ({m.list}) at {m.offsetSec.toFixed(1)} s, score {m.score.toFixed(2)}
    </p>
  );
}
