// Stream-end reasons (docs/api.md §4): auxInfo.errorCode → what a moderator reads.
export const END_REASONS: Readonly<Record<number, string>> = {
  3001: "stream unreachable",
  3002: "invalid stream data",
  3003: "stream does not exist",
  3004: "no audio in the stream",
  3005: "pull token expired",
};

/** null/undefined: the stream was closed or ended by itself, not lost to a pull failure. */
export function endReasonText(code: number | null | undefined): string {
  if (code === null || code === undefined) return "closed / ended";
  return END_REASONS[code] ?? `pull error ${code}`;
}
