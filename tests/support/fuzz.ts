// Shared by the fuzz suites: where a JSON body can be changed, and one change applied to a copy of it.
import fc from "fast-check";

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every path (list of keys/indices) inside a JSON value, the root excluded. */
export function pathsOf(v: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(v)) return v.flatMap((x, i) => [[...prefix, i], ...pathsOf(x, [...prefix, i])]);
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => [[...prefix, k], ...pathsOf(x, [...prefix, k])]);
  return [];
}

export interface Mutation {
  at: Array<string | number>;
  op: "set" | "delete" | "sibling";
  value: unknown;
  key: string;
}

/**
 * A copy of `base` with the field at `at` replaced, removed, or given a sibling `key` (an own "__proto__" key, as
 * JSON.parse makes it; inside an array, one more element).
 */
export function applyMutation(base: Json, m: Mutation): Json {
  const body = structuredClone(base);
  let parent: Json = body;
  for (const k of m.at.slice(0, -1)) parent = parent[k];
  const last = m.at[m.at.length - 1];
  if (m.op === "delete") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (m.op === "set") parent[last] = m.value;
  // JSON arrays have no named members: their "sibling" is one more element (a key such as "length" cannot be redefined)
  else if (Array.isArray(parent)) parent.push(m.value);
  else Object.defineProperty(parent, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
  return body;
}

/** Arbitrary mutations of `base`: which field, what to do (weighted by `ops`), with which junk value and sibling key. */
export function mutationOf(base: Json, o: { ops: Array<Mutation["op"]>; value: fc.Arbitrary<unknown>; key: fc.Arbitrary<string> }): fc.Arbitrary<Json> {
  return fc.record({ at: fc.constantFrom(...pathsOf(base)), op: fc.constantFrom(...o.ops), value: o.value, key: o.key }).map((m) => applyMutation(base, m));
}
