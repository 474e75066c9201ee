// Stream-end reasons (docs/api.md §4): auxInfo.errorCode → what a moderator reads.
export const END_REASONS: Readonly<Record<number, string>> = {
  3001: "stream unreachable",
  3002: "invalid stream data",
  3003: "stream does not exist",
  3004: "no audio in the stream",
  3005: "pull token expired",
};

/**
 * Why a stream ended, as a moderator reads it: a pull failure's code wins; otherwise the stored reason says who
 * closed it ("closed by ana", "closed by rule \"x\" (v2)…") or that the source ended; "closed / ended" only when
 * nothing was stored (streams ended before reasons were kept).
 */
export function endReasonText(code: number | null | undefined, reason?: string | null): string {
  if (code !== null && code !== undefined) return END_REASONS[code] ?? `pull error ${code}`;
  if (!reason) return "closed / ended";
  if (reason === "ended") return "the source ended";
  if (reason === "closed") return "closed (by the service or an API call)";
  return reason;
}
