// The README and docs/ as tests read them: the first-run block (between `<!-- first-run -->` and
// `<!-- /first-run -->`), links, and references to paths outside the repository.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

export const readRepoFile = (rel: string): string => fs.readFileSync(path.join(REPO_ROOT, rel), "utf8");

/** The shell commands of the README's first-run block, one per line (comments and blank lines dropped). */
export function firstRunCommands(readme: string): string[] {
  const m = /<!-- first-run -->\s*```sh\n([\s\S]*?)\n```\s*<!-- \/first-run -->/.exec(readme);
  if (!m) throw new Error("README: no ```sh block between <!-- first-run --> and <!-- /first-run -->");
  return m[1].split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
}

/** Markdown links `[text](target)` outside code spans and fenced blocks, with their line numbers. */
export function markdownLinks(md: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fenced = false;
  md.split("\n").forEach((text, i) => {
    if (text.trimStart().startsWith("```")) fenced = !fenced;
    if (fenced) return;
    const plain = text.replace(/`[^`]*`/g, "");
    for (const m of plain.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) out.push({ target: m[1], line: i + 1 });
  });
  return out;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor a markdown file offers (its headings, numbered -1, -2 … when repeated). */
export function anchorsOf(md: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of md.split("\n")) {
    if (line.trimStart().startsWith("```")) fenced = !fenced;
    const h = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!h) continue;
    const base = headingAnchor(h[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/**
 * References to files outside the repository: relative paths climbing out of it (`../shared/…`), absolute paths
 * into the machine's work folders, and the outside contract documents by name.
 */
export const OUTSIDE_PATH = /(?:\.\.\/)+shared\b|\/work\/(?:shared|main|wt)\b|\b(?:CONTRACT|SERVICE|STACK|STYLE)\.md\b/;
