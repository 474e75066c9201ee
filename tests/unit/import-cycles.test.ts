// The code base keeps import cycles at zero: every relative or "@/" import (type imports too) of server, lib, app and
// components is resolved and the graph searched for a cycle. A cycle is reported as the chain of files that closes it.
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DIRS = ["server", "lib", "app", "components"];
const EXTS = [".ts", ".tsx", ".mts"];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return name === "node_modules" ? [] : sources(p);
    return EXTS.includes(path.extname(p)) && !p.endsWith(".d.ts") ? [p] : [];
  });
}

function resolve(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(ROOT, spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(from), spec) : null;
  if (!base) return null;
  const candidates = [base, ...EXTS.map((e) => base + e), ...EXTS.map((e) => path.join(base, `index${e}`)), base.replace(/\.m?js$/, ".ts")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile() && EXTS.includes(path.extname(c))) ?? null;
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

test("no import cycles in server, lib, app and components", () => {
  const files = DIRS.flatMap((d) => sources(path.join(ROOT, d)));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, "utf8");
    const deps = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const r = resolve(f, m[1] ?? m[2]);
      if (r) deps.add(r);
    }
    graph.set(f, [...deps]);
  }
  assert.ok(graph.size > 200, `scanned ${graph.size} files`);
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const d of graph.get(f) ?? []) {
      if (state.get(d) === "open") cycles.push([...stack.slice(stack.indexOf(d)), d].map((x) => path.relative(ROOT, x)).join(" → "));
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  assert.deepEqual(cycles, []);
});
