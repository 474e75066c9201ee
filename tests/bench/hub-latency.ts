// Callback → browser latency: valid frame callbacks POSTed to the dashboard's receiver (a Next route
// handler) and fanned out over socket.io to 10 subscribed clients. Needs a production build (.next).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { io as connect, type Socket } from "socket.io-client";
import { loadConfig } from "../../server/config";
import { startApp } from "../../server/app";
import { hashToken } from "../../server/dashboard/tokens";
import { dashboardStreams } from "../../server/store/schema";
import { percentile } from "./stats";

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
    for (let i = 1; i <= callbacks; i++) {
      const now = Date.now();
      const body = { code: 1100, message: "Success", requestId: `${requestId}_v${i}`, contentType: 1, statCode: 0, frameDetail: { imgUrl: "http://x/f.jpg", riskLevel: "PASS", riskLabel1: "normal", riskLabel2: "", riskLabel3: "", riskDescription: "Normal", allLabels: [], riskDetail: { riskSource: 1000 }, auxInfo: { beginProcessTime: now, finishProcessTime: now, imgTime: "2026-01-01 00:00:00.000" }, businessLabels: [] } };
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", "webhook-id": `msg_${i}` }, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`receiver answered ${res.status}: ${await res.text()}`);
    }
    const deadline = Date.now() + 10_000;
    while (delivered < clients * callbacks && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    latencies.sort((a, b) => a - b);
    return { clients, callbacks, delivered, expected: clients * callbacks, p50Ms: percentile(latencies, 50), p99Ms: percentile(latencies, 99), maxMs: Math.round(latencies[latencies.length - 1] ?? 0) };
  } finally {
    sockets.forEach((s) => s.close());
    await app.close();
  }
}
