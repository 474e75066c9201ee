// Turning zod failures into the short 1902 message clients see (`invalid parameter data.url: …`).
import { z } from "zod";

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** `data.advancedFrequency.frequencies[2]` style. */
export function formatPath(path: Path): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** In a union, report the branch that got furthest (deepest first issue). */
function firstLeaf(issue: Issue, prefix: Path): { issue: Issue; path: Path } {
  const path = [...prefix, ...issue.path];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    let best: { issue: Issue; path: Path } | undefined;
    for (const branch of issue.errors) {
      if (branch.length === 0) continue;
      const leaf = firstLeaf(branch[0], path);
      if (best === undefined || leaf.path.length > best.path.length) best = leaf;
    }
    if (best !== undefined) return best;
  }
  return { issue, path };
}

function shortMessage(issue: Issue): string {
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) return "required";
  return issue.message.replace(/^Invalid input: /, "");
}

/** Short message naming the first offending field, e.g. `invalid parameter data.url: required for streamType NORMAL`. */
export function describeZodError(err: z.ZodError): string {
  const first = err.issues[0];
  if (first === undefined) return "invalid parameter";
  const { issue, path } = firstLeaf(first, []);
  const where = formatPath(path);
  return where === "" ? `invalid parameter: ${shortMessage(issue)}` : `invalid parameter ${where}: ${shortMessage(issue)}`;
}

export type ContractResult<T> = { success: true; data: T } | { success: false; message: string; error: z.ZodError };

/** safeParse + describeZodError: what a handler needs to answer 1902. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): ContractResult<z.output<S>> {
  const r = schema.safeParse(input);
  return r.success ? { success: true, data: r.data } : { success: false, message: describeZodError(r.error), error: r.error };
}
