// A signed-in dashboard user without a browser: the session and CSRF cookies from the real sign-in route, dashboard
// API calls as the page makes them (Origin + CSRF header), and a socket.io-client connection carrying the cookie that
// records every live event it gets (stream:event, stream:health) in the rooms it joined.
import { io as connect, type Socket } from "socket.io-client";
import type { StreamEvent } from "../../lib/dashboard-api";
import type { StreamHealthUpdate } from "../../lib/stream-health";
import { CSRF_HEADER } from "../../lib/roles";
import { waitFor } from "./net";

export interface DashboardSession {
  base: string;
  cookie: string;
  csrf: string;
}

export async function signInDashboard(base: string, who: { username: string; password: string }): Promise<DashboardSession> {
  const res = await fetch(`${base}/api/auth/signin`, { method: "POST", headers: { origin: base, "content-type": "application/json" }, body: JSON.stringify(who) });
  if (res.status !== 200) throw new Error(`sign-in on ${base}: HTTP ${res.status} ${await res.text()}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(";")[0]);
  const csrf = cookies.find((c) => c.startsWith("mp_csrf="))?.slice("mp_csrf=".length) ?? "";
  return { base, cookie: cookies.join("; "), csrf: decodeURIComponent(csrf) };
}

/** A dashboard API call as the page makes it; the parsed JSON answer and the status. */
export async function dashboardCall(s: DashboardSession, p: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${s.base}${p}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { cookie: s.cookie, origin: s.base, [CSRF_HEADER]: s.csrf, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

/** Starts a video stream from the dashboard (the New stream drawer's request): QR every `detectFrequency` s, every frame called back. */
export async function startDashboardStream(s: DashboardSession, url: string, title: string, detectFrequency = 1): Promise<string> {
  const r = await dashboardCall(s, "/api/streams", { kind: "video", url, title, detectFrequency, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: true, returnAllText: false, returnFinishInfo: true });
  if (r.status !== 200 || typeof r.json.requestId !== "string") throw new Error(`dashboard stream start on ${s.base}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.requestId;
}

export interface LiveClient {
  socket: Socket;
  events: Array<StreamEvent & { at: number }>;
  health: Array<StreamHealthUpdate & { at: number }>;
  subscribe(room: string): Promise<boolean>;
  close(): void;
}

/** A live-update connection to one node as the signed-in page holds it (reconnects on its own, as the page does). */
export async function liveClient(s: DashboardSession): Promise<LiveClient> {
  const socket = connect(s.base, { transports: ["websocket"], extraHeaders: { cookie: s.cookie, origin: s.base } });
  const events: LiveClient["events"] = [];
  const health: LiveClient["health"] = [];
  socket.on("stream:event", (e: StreamEvent) => void events.push({ ...e, at: Date.now() }));
  socket.on("stream:health", (u: StreamHealthUpdate) => void health.push({ ...u, at: Date.now() }));
  await waitFor(async () => socket.connected || null, 15_000);
  return {
    socket,
    events,
    health,
    subscribe: (room) => new Promise<boolean>((resolve) => socket.emit("subscribe", room, resolve)),
    close: () => void socket.close(),
  };
}
