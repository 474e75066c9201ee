import assert from "node:assert/strict";
import { test } from "node:test";
import { rawText } from "../../app/api/respond";

test("receivers read the body text byte for byte (a byte-order mark is kept), so signatures check over what was sent", async () => {
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é 中"}')]);
  const text = await rawText(new Request("http://x", { method: "POST", body: bytes }));
  assert.deepEqual(Buffer.from(text, "utf8"), bytes);
  assert.equal(await new Request("http://x", { method: "POST", body: bytes }).text().then((t) => Buffer.from(t).length), bytes.length - 3, "req.text() would drop the BOM");
});
