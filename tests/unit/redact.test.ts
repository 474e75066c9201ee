import assert from "node:assert/strict";
import { test } from "node:test";
import { redactSecrets } from "../../server/service/redact";

test("URLs keep scheme and host only; credentials, paths and queries go", () => {
  assert.equal(redactSecrets("pull failed (rtmp://10.0.0.1:1935/live/secretkey: refused)"), "pull failed (rtmp://10.0.0.1:1935/…: refused)");
  assert.equal(redactSecrets("GET https://user:pw@cdn.example.com/a.m3u8?token=abc failed"), "GET https://cdn.example.com/… failed");
  assert.equal(redactSecrets("to http://127.0.0.1:3000/api/receiver/stream/tok123"), "to http://127.0.0.1:3000/…");
  assert.equal(redactSecrets("host http://example.com/ ok"), "host http://example.com/ ok");
});

test("accessKey-like fields are masked", () => {
  assert.equal(redactSecrets('{"accessKey":"abc123","x":1}'), '{"accessKey":"***","x":1}');
  assert.equal(redactSecrets("password=hunter22 user=a"), "password=*** user=a");
});

test("Authorization values are masked: a Bearer token keeps its scheme, any other value goes whole", () => {
  assert.equal(redactSecrets('{"headers":{"Authorization":"Bearer s3cr3t-whep.token"}}'), '{"headers":{"Authorization":"Bearer ***"}}');
  assert.equal(redactSecrets("POST with Bearer abc.def-ghi failed"), "POST with Bearer *** failed");
  assert.equal(redactSecrets("authorization: Basic dXNlcjpwdw=="), "authorization: ***");
  assert.equal(redactSecrets("already Bearer *** here"), "already Bearer *** here");
  assert.equal(redactSecrets("it wants a bearer in data.headers.Authorization"), "it wants a bearer in data.headers.Authorization");
});
