/**
 * Case-insensitive glob over the whole value: `*` any run, `?` one character. Linear time (no backtracking regex), so
 * a pattern a user typed cannot stall the server. `substringWithoutWildcards`: a pattern with neither matches
 * anywhere in the value (review-queue routing); otherwise it must equal the value (rules).
 */
export function globMatch(pattern: string, value: string, o: { substringWithoutWildcards?: boolean } = {}): boolean {
  const p = pattern.toLowerCase();
  const v = value.toLowerCase();
  if (o.substringWithoutWildcards && !/[*?]/.test(p)) return v.includes(p);
  let pi = 0;
  let vi = 0;
  let star = -1;
  let mark = 0;
  while (vi < v.length) {
    if (pi < p.length && (p[pi] === "?" || p[pi] === v[vi])) {
      pi++;
      vi++;
    } else if (pi < p.length && p[pi] === "*") {
      star = pi++;
      mark = vi;
    } else if (star >= 0) {
      pi = star + 1;
      vi = ++mark;
    } else return false;
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}
