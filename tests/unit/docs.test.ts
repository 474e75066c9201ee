// The README is the front door and docs/ holds the rest: the README fits (≤ 250 lines) and keeps its set-up, first-run
// and test commands findable; every relative link in README and docs/ reaches a file (and a heading, when it names
// one); nothing in README, docs/ or tests/ names a file outside the repository; every environment variable the
// server reads is in the configuration reference.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { anchorsOf, firstRunCommands, markdownLinks, OUTSIDE_PATH, readRepoFile, REPO_ROOT } from "../support/readme";

const README = readRepoFile("README.md");
const docs = fs.readdirSync(path.join(REPO_ROOT, "docs"), { recursive: true }).map(String).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true }).map((f) => `${dir}/${String(f)}`).filter((f) => fs.statSync(path.join(REPO_ROOT, f)).isFile());
}

test("the README fits on a few screens: at most 250 lines", () => {
  const lines = README.split("\n").length - (README.endsWith("\n") ? 1 : 0);
  assert.ok(lines <= 250, `README.md has ${lines} lines`);
});

test("the README keeps the two set-up commands, a first-run block and the test command `npm test`", () => {
  assert.match(README, /^npm install --no-audit --no-fund && npm run build && npm start\b/m);
  assert.match(README, /^## Tests\n\n```sh\nnpm test\n```$/m, "CI runs the README's test command: keep it exactly `npm test`");
  assert.ok(firstRunCommands(README).length >= 5);
  assert.match(README, /!\[[^\]]+\]\(docs\/img\/[\w.-]+\.png\)/, "a screenshot");
});

test("every relative link in README and docs/ reaches a file, and a heading when it names one", () => {
  const broken: string[] = [];
  // docs/pending/ holds other branches' drafts until they are moved into a page
  for (const file of ["README.md", ...docs.filter((d) => !d.startsWith("docs/pending/"))]) {
    for (const { target, line } of markdownLinks(readRepoFile(file))) {
      if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
      const [rel, anchor] = target.split("#");
      const resolved = rel ? path.normalize(path.join(path.dirname(file), rel)) : file;
      const where = `${file}:${line} → ${target}`;
      if (resolved.startsWith("..") || !fs.existsSync(path.join(REPO_ROOT, resolved))) {
        broken.push(`${where} (no file ${resolved})`);
        continue;
      }
      if (anchor && resolved.endsWith(".md") && !anchorsOf(readRepoFile(resolved)).has(anchor)) broken.push(`${where} (no heading #${anchor})`);
    }
  }
  assert.deepEqual(broken, []);
});

test("the README links every docs page", () => {
  const linked = new Set(markdownLinks(README).map((l) => path.normalize(l.target.split("#")[0])));
  const missing = docs.filter((d) => !d.startsWith("docs/pending/") && !linked.has(d));
  assert.deepEqual(missing, []);
});

test("nothing in README, docs/ or tests/ names a file outside the repository", () => {
  // this check's own pattern is the one exception
  const self = new Set(["tests/support/readme.ts", "tests/unit/docs.test.ts"]);
  const files = ["README.md", ...filesUnder("docs"), ...filesUnder("tests")].filter((f) => !self.has(f) && /\.(md|ts|mjs|js|json)$/.test(f));
  const hits: string[] = [];
  for (const f of files) {
    readRepoFile(f).split("\n").forEach((text, i) => {
      const m = OUTSIDE_PATH.exec(text);
      if (m) hits.push(`${f}:${i + 1}: ${m[0]}`);
    });
  }
  assert.deepEqual(hits, []);
});

test("every environment variable the server reads is in docs/configuration.md", () => {
  const reference = readRepoFile("docs/configuration.md");
  const read = new Set<string>();
  for (const f of filesUnder("server").filter((x) => x.endsWith(".ts"))) {
    for (const m of readRepoFile(f).matchAll(/\benv(?:\.|\?\.)([A-Z][A-Z0-9_]+)|\benv\["([A-Z][A-Z0-9_]+)"\]|\bnum\("([A-Z][A-Z0-9_]+)"/g)) read.add(m[1] ?? m[2] ?? m[3]);
  }
  assert.ok(read.has("PORT") && read.has("DATA_DIR") && read.size > 50, `found ${read.size} variables`);
  const missing = [...read].filter((v) => !reference.includes(`\`${v}\``)).sort();
  assert.deepEqual(missing, []);
});
