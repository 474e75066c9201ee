import assert from "node:assert/strict";
import { test } from "node:test";
import { jsonDepth } from "../../server/request/body";

const depth = (s: string, max = 64) => jsonDepth(Buffer.from(s), max);

test("jsonDepth counts object/array nesting over bytes, skipping brackets inside strings and escapes", () => {
  assert.equal(depth('{"a":1}'), 1);
  assert.equal(depth('{"a":[{"b":[]}],"c":{}}'), 4);
  assert.equal(depth('{"a":"[[[[{{{{"}'), 1, "brackets in a string do not nest");
  assert.equal(depth('{"a":"\\"[[[[","b":[1]}'), 2, "an escaped quote does not end the string");
  assert.equal(depth('{"a":"\\\\","b":[[1]]}'), 3, "an escaped backslash before the closing quote");
  assert.equal(depth("[".repeat(1_000_000), 64), 65, "stops one past the bound");
  assert.equal(depth('"just a string"'), 0);
});
