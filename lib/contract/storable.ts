// Shared by the service (request bodies) and the dashboard receivers (callback bodies): what PostgreSQL can store.
/** Deepest nesting a body may have (PostgreSQL's jsonb and JSON.stringify both recurse). */
export const MAX_BODY_DEPTH = 64;
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a parsed body cannot be stored as it is, naming the field: nesting deeper than MAX_BODY_DEPTH, or a
 * string (value or key) holding a NUL character or an unpaired surrogate, which PostgreSQL text and jsonb refuse.
 * Null when it is fine. Iterative, so a hostile nesting cannot overflow the stack here.
 */
export function unstorable(body: unknown): string | null {
  const field = (p: string) => (p.length > 80 ? `${p.slice(0, 80)}…` : p) || "body";
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: body, path: "", depth: 0 }];
  while (stack.length) {
    const { v, path, depth } = stack.pop()!;
    if (typeof v === "string") {
      if (UNSTORABLE.test(v)) return `${field(path)}: contains a NUL character or an unpaired surrogate`;
      continue;
    }
    if (!v || typeof v !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) return `${field(path)}: nested deeper than ${MAX_BODY_DEPTH} levels`;
    for (const [k, child] of Object.entries(v)) {
      const at = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
      if (UNSTORABLE.test(k)) return `${field(at)}: field name contains a NUL character or an unpaired surrogate`;
      stack.push({ v: child, path: at, depth: depth + 1 });
    }
  }
  return null;
}
