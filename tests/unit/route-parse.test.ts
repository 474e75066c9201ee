// The route handlers' body parsing (app/api/incidents/parse.ts): a body that may be left out (claim, next) reads
// empty as `{}`, answers 400 "body: not JSON" for text that is not JSON, and 400 naming the field for a wrong one.
import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { parseBody, parseOptionalBody } from "../../app/api/incidents/parse";
import { issuesText } from "../../app/api/respond";

const Input = z.object({ renew: z.boolean().optional() }).strict();
const post = (body?: string) => new Request("http://x/api/incidents/i/claim", { method: "POST", body });

test("an optional body: empty or blank is {}, JSON is checked, anything else is a 400", async () => {
  for (const body of [undefined, "", "  \n"]) assert.deepEqual(await parseOptionalBody(post(body), Input), { ok: true, data: {} });
  assert.deepEqual(await parseOptionalBody(post('{"renew":true}'), Input), { ok: true, data: { renew: true } });
  const notJson = await parseOptionalBody(post("renew"), Input);
  assert.ok(!notJson.ok);
  assert.equal(notJson.answer.status, 400);
  assert.deepEqual(await notJson.answer.json(), { error: "body: not JSON" });
  const wrong = await parseOptionalBody(post('{"renew":"yes"}'), Input);
  assert.ok(!wrong.ok);
  assert.equal(wrong.answer.status, 400);
  assert.match((await wrong.answer.json()).error, /^renew: /);
});

test("a required body: missing or not JSON fails the schema (400 naming the body)", async () => {
  const missing = await parseBody(post(), z.object({ decision: z.string() }));
  assert.ok(!missing.ok);
  assert.equal(missing.answer.status, 400);
  assert.match((await missing.answer.json()).error, /^body: /);
});

test("zod issues read as one line naming each field", () => {
  const r = z.object({ a: z.string(), b: z.object({ c: z.number() }) }).safeParse({ a: 1, b: { c: "x" } });
  assert.ok(!r.success);
  assert.match(issuesText(r.error), /^a: .+; b\.c: .+$/);
});
