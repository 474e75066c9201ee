// Callback → browser latency: valid frame callbacks POSTed to the dashboard's receiver (a Next route
// handler) and fanned out over socket.io to 10 subscribed clients. Needs a production build (.next).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { io as connect, type Socket } from "socket.io-client";
import { loadConfig } from "../../server/config";
import { startApp } from "../../server/app";
import { hashToken } from "../../server/dashboard/tokens";
import { webhookHeaders } from "../../server/callback/signature";
import { dashboardStreams } from "../../server/store/schema";
import { percentile } from "./stats";

const frameBody = (requestId: string, i: number) => {
  const now = Date.now();
  return { code: 1100, message: "Success", requestId: `${requestId}_v${i}`, contentType: 1, statCode: 0, frameDetail: { imgUrl: "http://x/f.jpg", riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: "Normal", allLabels: [], riskDetail: { riskSource: 1000 }, auxInfo: { beginProcessTime: now, finishProcessTime: now, imgTime: "2026-01-01 00:00:00.000" }, businessLabels: [] } };
};

/** Raw socket.io: one server, `clients` websocket clients in one room, `count` broadcasts of a callback-sized body as fast as it goes. Events/s each client received. */
async function rawBroadcastRate(clients: number, count: number): Promise<number> {
  const server = http.createServer();
  const io = new Server(server, { serveClient: false });
  io.on("connection", (s) =>
    s.on("subscribe", (room: string, ack: () => void) => {
      void s.join(room);
      ack();
    }),
  );
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sockets: Socket[] = [];
  let got = 0;
  try {
    for (let i = 0; i < clients; i++) {
      const s = connect(url, { transports: ["websocket"] });
      await new Promise<void>((resolve) => s.on("connect", () => s.emit("subscribe", "room", () => resolve())));
      s.on("stream:event", () => got++);
      sockets.push(s);
    }
    const t0 = performance.now();
    for (let i = 1; i <= count; i++) {
      io.to("room").emit("stream:event", { id: i, requestId: "x", kind: "frame", body: frameBody("x", i) });
      if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let the sockets write, as a real server between requests
    }
    while (got < clients * count && performance.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 5));
    return got / clients / ((performance.now() - t0) / 1000);
  } finally {
    sockets.forEach((s) => s.close());
    await new Promise<void>((r) => io.close(() => r()));
  }
}

export async function benchHubLatency(o: { clients?: number; callbacks?: number } = {}): Promise<Record<string, number>> {
  const clients = o.clients ?? 10;
  const callbacks = o.callbacks ?? 300;
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "bench-hub-"));
  const config = loadConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, MODERATION_ACCESS_KEYS: "bench", NODE_ENV: "production", RTMP_PORT: "0", SUPERVISOR_INITIAL_PASSWORD: "bench-supervisor-pass" });
  const app = await startApp(config, { withNext: true, log: () => undefined });
  const sockets: Socket[] = [];
  try {
    const requestId = crypto.randomBytes(16).toString("hex");
    const token = crypto.randomBytes(24).toString("base64url");
    await app.engine!.ctx.store.db.insert(dashboardStreams).values({ requestId, kind: "video", url: "rtmp://bench/live/x", serviceBaseUrl: app.url, receiverToken: hashToken(token), status: "running", startedAt: new Date() });
    // the hub only serves signed-in dashboard users
    const signIn = await fetch(`${app.url}/api/auth/signin`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: "bench-supervisor-pass" }) });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const latencies: number[] = [];
    let delivered = 0;
    for (let i = 0; i < clients; i++) {
      const s = connect(app.url, { transports: ["websocket"], extraHeaders: { cookie } });
      await new Promise<void>((resolve) => s.on("connect", () => s.emit("subscribe", `stream:${requestId}`, () => resolve())));
      s.on("stream:event", (e) => {
        const sent = (e.body as { frameDetail: { auxInfo: { beginProcessTime: number } } }).frameDetail.auxInfo.beginProcessTime;
        latencies.push(Date.now() - sent);
        delivered++;
      });
      sockets.push(s);
    }
    const url = `${app.url}/api/receiver/stream/${token}`;
    let n = 0;
    const post = async () => {
      const i = ++n;
      const body = JSON.stringify(frameBody(requestId, i));
      // signed as the embedded engine signs the dashboard's callbacks (the receivers refuse anything else)
      const headers = webhookHeaders(app.engine!.dashboardSigningSecret, `msg_${i}`, Math.floor(Date.now() / 1000), body);
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
      if (res.status !== 200) throw new Error(`receiver answered ${res.status}: ${await res.text()}`);
    };
    const settle = async (target: number) => {
      const deadline = Date.now() + 20_000;
      while (delivered < target && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    };
    // 1. one at a time: the latency of a lone callback
    for (let i = 1; i <= callbacks; i++) await post();
    await settle(clients * callbacks);
    const lone = [...latencies].sort((a, b) => a - b);
    // 2. paced at 500 callbacks/s for 4 s: latency under that load
    latencies.length = 0;
    const paced = 2000;
    const start = delivered;
    const t0 = performance.now();
    const inflight = new Set<Promise<void>>();
    for (let i = 0; i < paced; i++) {
      const due = t0 + i * 2; // one every 2 ms
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      // at most 64 in flight: past that the pace is what the receiver sustains (pacedCallbacksPerSec says it)
      while (inflight.size >= 64) await Promise.race(inflight);
      const p: Promise<void> = post().finally(() => inflight.delete(p));
      inflight.add(p);
    }
    await Promise.all(inflight);
    await settle(start + clients * paced);
    const pacedSec = (performance.now() - t0) / 1000;
    const underLoad = [...latencies].sort((a, b) => a - b);
    // 3. flat out, 16 in flight: callbacks/s that reached every browser, beside a raw socket.io broadcast
    const flat = 3000;
    const from = delivered;
    const t1 = performance.now();
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (n < callbacks + paced + flat) await post();
    }));
    await settle(from + clients * flat);
    const flatRate = (delivered - from) / clients / ((performance.now() - t1) / 1000);
    const raw = await rawBroadcastRate(clients, flat);
    return {
      clients,
      callbacks: callbacks + paced + flat,
      delivered,
      expected: clients * (callbacks + paced + flat),
      p50Ms: percentile(lone, 50),
      p99Ms: percentile(lone, 99),
      maxMs: Math.round(lone[lone.length - 1] ?? 0),
      pacedCallbacksPerSec: Math.round(paced / pacedSec),
      pacedP50Ms: percentile(underLoad, 50),
      pacedP99Ms: percentile(underLoad, 99),
      callbacksPerSecToAllBrowsers: Math.round(flatRate),
      rawSocketIoBroadcastsPerSec: Math.round(raw),
      receiverOverRaw: Math.round((flatRate / raw) * 100) / 100,
    };
  } finally {
    sockets.forEach((s) => s.close());
    await app.close();
  }
}
