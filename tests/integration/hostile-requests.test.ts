// Requests an attacker can send without any credential must be answered, never crash the process: the service
// has no Next handler of its own (SERVICE_ONLY=1, the test service), so a throw in a request listener would
// end it. Found by the security review: a signature of 32 characters but 33 bytes made timingSafeEqual throw,
// and a FLV request for `//` made the ingest's URL parse throw.
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, test } from "node:test";
import { startRtmpServer, type RtmpServer } from "../../server/demo/rtmp-server";
import { startTestService } from "../support/app";

let svc: Awaited<ReturnType<typeof startTestService>>;
let ingest: RtmpServer;
before(async () => {
  [svc, ingest] = await Promise.all([startTestService(), startRtmpServer({ rtmpPort: 0, httpPort: 0, host: "127.0.0.1" })]);
});
after(async () => {
  await Promise.all([svc?.close(), ingest?.close()]);
});

/** A raw GET of exactly this request target (fetch would normalise `//`). */
function get(port: number, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: target, method: "GET", timeout: 5000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer to ${target}`)));
    req.on("error", reject);
    req.end();
  });
}

test("media links: a signature of the right length in characters but not in bytes, or a bad escape, is refused 403/400; the service keeps answering", async () => {
  const port = Number(new URL(svc.url).port);
  const multibyte = `%C3%A9${"a".repeat(31)}`; // "é" + 31 letters: 32 characters, 33 bytes
  assert.equal(await get(port, `/media/x/v1.jpg?exp=99999999999&sig=${multibyte}`), 403);
  assert.equal(await get(port, `/media/x/v1.jpg?exp=99999999999&sig=${"\u{1F600}".repeat(16)}`.replace(/\u{1F600}/gu, "%F0%9F%98%80")), 403);
  assert.ok([400, 403].includes(await get(port, "/media/%E0%A4%A/v1.jpg?exp=1&sig=x")));
  assert.equal(await get(port, "/capabilities/v4"), 200, "still up");
});

test("the ingest's HTTP-FLV port answers `//`, a bad escape and a junk target with 404; it keeps serving", async () => {
  for (const target of ["//", "//x/y.flv", "/%E0%A4%A.flv", "/live/%zz.flv"]) assert.equal(await get(ingest.httpPort, target), 404, target);
  assert.equal(await get(ingest.httpPort, "/"), 404, "still up");
});
