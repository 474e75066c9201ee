// OpenAPI generation: six paths, webhooks, JSON-serialisable, and no schema makes toJSONSchema throw.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import * as contract from "../../lib/contract";
import { buildOpenApi, jsonSchemaOf } from "../../lib/contract";

const PATHS = ["/videostream/v4", "/finish_videostream/v4", "/audiostream/v4", "/finish_audiostream/v4", "/video/v4", "/video/query/v4"];

type Doc = {
  openapi: string;
  servers: { url: string }[];
  paths: Record<string, { post: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }> } }>;
  webhooks: Record<string, unknown>;
};

test("buildOpenApi documents the six endpoints and the callbacks", () => {
  const doc = JSON.parse(JSON.stringify(buildOpenApi({ serverUrl: "http://localhost:3000" }))) as Doc;
  assert.equal(doc.openapi, "3.1.0");
  assert.deepEqual(doc.servers, [{ url: "http://localhost:3000" }]);
  assert.deepEqual(Object.keys(doc.paths).sort(), [...PATHS].sort());
  for (const p of PATHS) {
    const req = doc.paths[p].post.requestBody.content["application/json"].schema;
    const res = doc.paths[p].post.responses["200"].content["application/json"].schema;
    assert.equal(req.type, "object", p);
    assert.ok(Array.isArray(req.required) && req.required.includes("accessKey"), `${p} requires accessKey`);
    assert.ok(Object.keys(res).length > 0, `${p} response schema is not empty`);
  }
  assert.deepEqual(Object.keys(doc.webhooks).sort(), ["audioStreamCallback", "videoFileCallback", "videoStreamAudioCallback", "videoStreamImgCallback"]);
});

test("request schemas document the accepted input: optional streamType, both callback forms", () => {
  const doc = buildOpenApi() as unknown as Doc;
  const audio = doc.paths["/audiostream/v4"].post.requestBody.content["application/json"].schema as {
    properties: { data: { properties: Record<string, unknown>; required?: string[] } };
  };
  assert.ok(!(audio.properties.data.required ?? []).includes("streamType"));
  const video = doc.paths["/videostream/v4"].post.requestBody.content["application/json"].schema as { properties: Record<string, unknown>; description?: string };
  assert.ok("callback" in video.properties && "imgCallback" in video.properties);
  assert.match(String(video.description), /videostream/);
});

test("every exported schema converts in both directions without throwing", () => {
  let count = 0;
  for (const [name, value] of Object.entries(contract)) {
    if (!(value instanceof z.ZodType)) continue;
    count++;
    for (const io of ["input", "output"] as const) {
      assert.doesNotThrow(() => z.toJSONSchema(value, { io, unrepresentable: "any" }), `${name} (${io})`);
      assert.equal(typeof jsonSchemaOf(value, io), "object");
    }
  }
  assert.ok(count > 40, `found ${count} schemas`);
});
