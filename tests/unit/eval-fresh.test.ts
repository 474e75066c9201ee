// The detector figures in tests/eval/results.json (quoted by the docs) describe the detectors as they are: the file
// must not be older than the last change to server/detect (git commit dates). Outside a git checkout (a tarball,
// git missing) there is nothing to compare: skipped, with the reason.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const git = (...args: string[]) => spawnSync("git", args, { cwd: ROOT, encoding: "utf8" });
const inGit = git("rev-parse", "--is-inside-work-tree").stdout?.trim() === "true";
const shallow = inGit && git("rev-parse", "--is-shallow-repository").stdout?.trim() === "true";
const skip = !inGit ? "not a git checkout: no commit dates to compare" : shallow ? "a shallow clone: the history of server/detect is incomplete" : false;

/** The last commit touching `p`: its date and subject. */
function last(p: string): { at: number; line: string } {
  const out = git("log", "-1", "--format=%cI %h %s", "--", p).stdout.trim();
  return { at: Date.parse(out.split(" ")[0]), line: out.slice(0, 160) };
}

const results = skip ? null : last("tests/eval/results.json");
const detect = skip ? null : last("server/detect");
// stale figures are reported as a todo naming both commits (the run says so) rather than failing every CI run
// between a detector change and the next full `npm run eval` (≈ 30 min on this machine)
const stale = results && detect && results.at < detect.at
  ? `the eval figures predate the detectors: results.json last committed ${results.line}; server/detect changed since: ${detect.line}. Run \`npm run eval\` and commit tests/eval/results.json`
  : false;

test("tests/eval/results.json is not older than the last change to server/detect", { skip, todo: stale }, () => {
  assert.ok(results && Number.isFinite(results.at), "results.json is committed");
  assert.ok(detect && Number.isFinite(detect.at), "server/detect has history");
  assert.ok(results.at >= detect.at, stale || "fresh");
});
