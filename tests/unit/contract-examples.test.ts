// Every JSON example of the vendor contract (tests/fixtures/contract-examples.json) and the vendor's own samples
// (tests/fixtures/vendor-v4-samples.json) parse with their schemas.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
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

test("every contract example parses with its schema", () => {
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

/** Vendor samples that follow the contract (the others break decisions, e.g. no requestParams/vadCode), kept in the repo. */
const SCHEMAS: Record<string, z.ZodType> = { VideoStreamRequest, VideoStreamFrameResult, VideoStreamEnd, VideoStreamCloseRequest, AudioStreamCloseRequest, VideoFileRequest, VideoFileResult, VideoQueryResponse };
const vendorSamples = (JSON.parse(readFileSync(path.join(repoRoot, "tests", "fixtures", "vendor-v4-samples.json"), "utf8")) as { samples: Array<{ file: string; index: number; schema: string; body: unknown }> }).samples;

test("vendor structured-doc samples parse with their schemas", () => {
  assert.equal(vendorSamples.length, 8);
  for (const s of vendorSamples) {
    const schema = SCHEMAS[s.schema];
    assert.ok(schema, `${s.file}[${s.index}]: schema ${s.schema}`);
    const r = schema.safeParse(s.body);
    assert.ok(r.success, `${s.file}[${s.index}]: ${r.success ? "" : describeZodError(r.error)}`);
  }
});
