// GET /metrics: Prometheus text from the real service, only to the configured networks or with the token;
// request, frame and stream figures move with real traffic (a real RTMP source).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { startTestService, TEST_KEY } from "../support/app";
import { startRtmpSource, type RtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";
import { allowList } from "../../server/net/peer-allow";

type Svc = Awaited<ReturnType<typeof startTestService>>;
const open: Array<{ close(): Promise<unknown> }> = [];
after(async () => {
  for (const o of open.reverse()) await o.close().catch(() => undefined);
});

/** The value of one sample (name with its labels exactly as printed), 0 when absent. */
function sample(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

async function scrape(svc: Svc, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(`${svc.url}/metrics`, { headers });
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") };
}

test("METRICS_ALLOW lists networks and single addresses; anything else is refused at start", () => {
  const list = allowList(["10.0.0.0/8", "::1", "192.168.1.7"]);
  assert.equal(list.check("10.2.3.4", "ipv4"), true);
  assert.equal(list.check("192.168.1.7", "ipv4"), true);
  assert.equal(list.check("192.168.1.8", "ipv4"), false);
  assert.equal(list.check("::1", "ipv6"), true);
  assert.throws(() => allowList(["not-an-ip"]), /METRICS_ALLOW/);
  assert.throws(() => allowList(["10.0.0.0/33"]), /prefix/);
});

test("outside METRICS_ALLOW /metrics answers 403 without the token and the Prometheus text with it", async () => {
  const svc = await startTestService({ env: { METRICS_ALLOW: "10.9.9.9/32", METRICS_TOKEN: "s3cret-metrics-token" } });
  open.push(svc);
  assert.equal((await scrape(svc)).status, 403);
  assert.equal((await scrape(svc, { authorization: "Bearer wrong" })).status, 403);
  const ok = await scrape(svc, { authorization: "Bearer s3cret-metrics-token" });
  assert.equal(ok.status, 200);
  assert.match(ok.type ?? "", /^text\/plain/);
  for (const name of ["moderation_requests_total", "moderation_stream_frames_total", "moderation_streams_running", "moderation_detect_queue_depth", "moderation_callbacks", "moderation_pull_retries_total", "moderation_frame_detection_lag_seconds", "moderation_process_cpu_seconds_total"]) {
    assert.match(ok.text, new RegExp(`^# TYPE ${name} `, "m"), name);
  }
  const post = await fetch(`${svc.url}/metrics`, { method: "POST", headers: { authorization: "Bearer s3cret-metrics-token" } });
  assert.equal(post.status, 405);
});

test("TRUST_PROXY=1: a same-host reverse proxy makes everyone loopback, so only METRICS_TOKEN lets in", async () => {
  const svc = await startTestService({ env: { TRUST_PROXY: "1", METRICS_TOKEN: "proxied-metrics-token" } }); // default METRICS_ALLOW: loopback
  open.push(svc);
  const refused = await scrape(svc, { "x-forwarded-for": "203.0.113.9" });
  assert.equal(refused.status, 403);
  assert.match(refused.text, /TRUST_PROXY=1.*METRICS_TOKEN/);
  assert.equal((await scrape(svc)).status, 403, "a loopback peer without the token too");
  assert.equal((await scrape(svc, { authorization: "Bearer proxied-metrics-token" })).status, 200);
});

test("requests by endpoint and code, frames captured and checked, streams running: they move with real traffic", async () => {
  let src: RtmpSource | null = null;
  const svc = await startTestService(); // default METRICS_ALLOW: loopback
  open.push(svc);
  const before = (await scrape(svc)).text;
  assert.equal((await scrape(svc)).status, 200);
  const bad = `moderation_requests_total{endpoint="/videostream/v4",code="1902"}`;
  const accepted = `moderation_requests_total{endpoint="/videostream/v4",code="1100"}`;
  const checked = `moderation_stream_frames_total{state="checked"}`;
  const captured = `moderation_stream_frames_total{state="captured"}`;

  const r1 = await svc.post("/videostream/v4", { accessKey: TEST_KEY, data: {} });
  assert.equal(r1.code, 1902);
  src = await startRtmpSource({ name: "metrics", audio: "none" });
  open.push(src);
  const rx = await startReceiver();
  open.push(rx);
  const ack = await svc.post("/videostream/v4", { accessKey: TEST_KEY, appId: "m", eventId: "VIDEOSTREAM", imgType: "QRCODE", audioType: "NONE", imgCallback: rx.url, data: { streamType: "NORMAL", url: src.rtmpUrl, tokenId: "m", detectFrequency: 1, returnAllImg: 1 } });
  assert.equal(ack.code, 1100, JSON.stringify(ack));
  await rx.until((r) => r.length >= 3, 90_000);

  const during = await waitFor(async () => {
    const t = (await scrape(svc)).text;
    return sample(t, checked) - sample(before, checked) >= 3 ? t : null;
  }, 30_000);
  assert.equal(sample(during, bad) - sample(before, bad), 1);
  assert.equal(sample(during, accepted) - sample(before, accepted), 1);
  assert.ok(sample(during, captured) - sample(before, captured) >= 3);
  assert.equal(sample(during, "moderation_streams_running"), 1);
  assert.ok(sample(during, "moderation_frame_detection_lag_seconds_count") - sample(before, "moderation_frame_detection_lag_seconds_count") >= 3);
  assert.ok(sample(during, `moderation_callback_attempts_total{outcome="delivered"}`) >= 3);

  assert.equal((await svc.post("/finish_videostream/v4", { accessKey: TEST_KEY, requestId: ack.requestId })).code, 1100);
  await waitFor(async () => sample((await scrape(svc)).text, "moderation_streams_running") === 0 || null, 30_000);
});
