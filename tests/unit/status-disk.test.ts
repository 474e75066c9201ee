import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { categoryOf } from "../../server/store/disk-use";
import { formatBytes, formatHours } from "../../components/status/format";

test("disk use: files under DATA_DIR fall into the Status page's categories", () => {
  const cases: Array<[string, string]> = [
    ["media/abc/frame-00001.jpg", "frames"],
    ["media/abc/seg001.wav", "audioClips"],
    ["media/abc/pre3.wav", "audioClips"],
    ["media/abc/source", "other"], // a download in progress
    ["pglite/base/1/1259", "database"],
    ["face-gallery/public_figures/x/1.jpg", "referenceLists"],
    ["hash-bank/bank.json", "referenceLists"],
    ["audio-references/anthem/a.wav", "referenceLists"],
    ["keyword-lists/ads.json", "referenceLists"],
    ["policy/policy.json", "referenceLists"],
    ["tessdata/eng.traineddata.gz", "other"],
    ["access-key", "other"],
  ];
  for (const [rel, category] of cases) assert.equal(categoryOf(rel.split("/").join(path.sep)), category, rel);
});

test("status formatting: bytes and retention hours", () => {
  assert.equal(formatBytes(0), "0 B");
  assert.equal(formatBytes(1023), "1023 B");
  assert.equal(formatBytes(1536), "1.5 KB");
  assert.equal(formatBytes(75 * 1024 ** 3), "75 GB");
  assert.equal(formatBytes(-1), "—");
  assert.equal(formatHours(72), "72 h");
  assert.equal(formatHours(0.5), "30 min");
  assert.equal(formatHours(0.0003), "1 s");
});
