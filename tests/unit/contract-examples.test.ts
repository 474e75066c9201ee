// Every JSON example of CONTRACT.md parses with its schema; the kept fixture copy matches the file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import {
  AudioStreamCloseRequest, AudioStreamCloseResponse, AudioStreamEnd, AudioStreamRequest, AudioStreamResponse,
  AudioStreamSegmentResult, VideoFileRequest, VideoFileResponse, VideoFileResult, VideoQueryRequest,
  VideoQueryResponse, VideoStreamAudioResult, VideoStreamCloseRequest, VideoStreamCloseResponse, VideoStreamEnd,
  VideoStreamFrameResult, VideoStreamRequest, VideoStreamResponse, describeZodError,
} from "../../lib/contract";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const fixturePath = path.join(repoRoot, "tests", "fixtures", "contract-examples.json");

interface Example { section: string; heading: string; body: unknown }

function contractPath(): string {
  const dir = process.env.SHARED_DIR ?? path.resolve(repoRoot, "..", "shared");
  return path.join(dir, "CONTRACT.md");
}

/** Same extraction as the fixture: each non-empty line of a ```json block, tagged with its ### heading. */
function extractExamples(markdown: string): Example[] {
  const out: Example[] = [];
  let heading = "";
  let inJson = false;
  for (const line of markdown.split("\n")) {
    const t = line.trim();
    if (!inJson && line.startsWith("### ")) heading = line.slice(4).trim();
    if (t === "```json") { inJson = true; continue; }
    if (inJson && t === "```") { inJson = false; continue; }
    if (inJson && t !== "") out.push({ section: heading.split(" ")[0], heading, body: JSON.parse(t) });
  }
  return out;
}

const fixture = (JSON.parse(readFileSync(fixturePath, "utf8")) as { examples: Example[] }).examples;

/** Example n (in file order) → section it must come from → schema that must accept it. */
const TABLE: ReadonlyArray<[section: string, schema: z.ZodType]> = [
  ["2.1", VideoStreamRequest],
  ["2.1", VideoStreamResponse],
  ["2.2", VideoStreamCloseRequest],
  ["2.2", VideoStreamCloseResponse],
  ["2.3", AudioStreamRequest],
  ["2.3", AudioStreamResponse],
  ["2.4", AudioStreamCloseRequest],
  ["2.4", AudioStreamCloseResponse],
  ["2.5", VideoFileRequest],
  ["2.5", VideoFileResponse],
  ["2.6", VideoQueryRequest],
  ["2.6", VideoQueryResponse],
  ["3.2", VideoStreamFrameResult],
  ["3.3", VideoStreamAudioResult],
  ["3.4", AudioStreamSegmentResult],
  ["3.4", AudioStreamSegmentResult],
  ["3.5", VideoStreamEnd],
  ["3.5", AudioStreamEnd],
  ["3.6", VideoFileResult],
];

test("the fixture has one table row per example, from the right section", () => {
  assert.equal(fixture.length, TABLE.length);
  fixture.forEach((ex, i) => assert.equal(ex.section, TABLE[i][0], `example ${i + 1}`));
});

test("every CONTRACT.md example parses with its schema", () => {
  fixture.forEach((ex, i) => {
    const r = TABLE[i][1].safeParse(ex.body);
    assert.ok(r.success, `example ${i + 1} (§${ex.section}): ${r.success ? "" : describeZodError(r.error)}`);
  });
});

test("parsing is idempotent: canonical output parses to itself", () => {
  fixture.forEach((ex, i) => {
    const once = TABLE[i][1].parse(ex.body);
    assert.deepEqual(TABLE[i][1].parse(once), once, `example ${i + 1}`);
  });
});

test("the 1100 query body is the callback body", () => {
  const body = fixture[18].body;
  assert.ok(VideoQueryResponse.safeParse(body).success);
});

/** Vendor samples that follow the contract (the others break decisions of §7, e.g. no requestParams/vadCode). */
const VENDOR_SAMPLES: ReadonlyArray<[file: string, index: number, schema: z.ZodType]> = [
  ["videostream-request.json", 32, VideoStreamRequest],
  ["videostream-request.json", 36, VideoStreamFrameResult],
  ["videostream-request.json", 40, VideoStreamEnd],
  ["videostream-close.json", 20, VideoStreamCloseRequest],
  ["audiostream-close.json", 17, AudioStreamCloseRequest],
  ["video-request.json", 28, VideoFileRequest],
  ["video-request.json", 32, VideoFileResult],
  ["video-query.json", 23, VideoQueryResponse],
];

test("vendor structured-doc samples parse when the shared folder is present", (t) => {
  const dir = path.join(path.dirname(contractPath()), "vendor-v4");
  if (!existsSync(dir)) {
    t.skip(`${dir} not present`);
    return;
  }
  for (const [file, index, schema] of VENDOR_SAMPLES) {
    const item = (JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Array<{ type: string; value: unknown }>)[index];
    assert.equal(item.type, "json", `${file}[${index}] is a sample`);
    const r = schema.safeParse(item.value);
    assert.ok(r.success, `${file}[${index}]: ${r.success ? "" : describeZodError(r.error)}`);
  }
});

test("the fixture matches CONTRACT.md when the shared folder is present", (t) => {
  const file = contractPath();
  if (!existsSync(file)) {
    t.skip(`${file} not present; the fixture copy is authoritative`);
    return;
  }
  assert.deepEqual(extractExamples(readFileSync(file, "utf8")), fixture);
});
