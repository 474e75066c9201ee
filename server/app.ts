import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "./config";
import { createDashboard } from "./dashboard";
import { createEngine, type Engine } from "./engine";
import { createHub } from "./hub";
import { setRegistry } from "./registry";
import { openStore } from "./store/db";
import { capabilityTable } from "./detect";
import { ingestAccess } from "./demo/ingest-access";
import { startRtmpServer, type RtmpServer } from "./demo/rtmp-server";
import { createDemo } from "./dashboard/demo";
import { inProcessFetch } from "./dashboard/in-process";
import { createAuth } from "./auth";
import { createAuthApi } from "./auth/api";
import { createOidc } from "./auth/oidc/flow";
import { gate, type GateOptions } from "./auth/gate";
import { hubAccess } from "./auth/hub-access";
import { createSettingsApi } from "./settings/api";
import { createSettingsStore } from "./settings/store";
import { readRequestTarget } from "./auth/request-target";
import { RetentionJob } from "./store/retention";
import { createStatus } from "./dashboard/status";
import { createIncidents } from "./incidents";
import { createQueues, type Queues } from "./queues";
import { registerIncidentFeed } from "./incidents/feed";
import { createUploads } from "./dashboard/uploads";
import { dataDirSecret } from "./service/access-keys";
import { createRules } from "./rules";
import { INCIDENTS_ROOM } from "../lib/events";
import { mediaReader } from "./incidents/media";
import { createReviewMetrics } from "./metrics/review";
import { accessKeyNames } from "./dashboard/api-tasks";
import { watchEngine } from "./metrics";
import { serveMetrics } from "./metrics/serve";
import { allowList } from "./net/peer-allow";
import { ownDataDir } from "./setup/data-dir";
import { plainHost } from "./net/host-header";

export interface App {
  url: string;
  port: number;
  engine: Engine | null;
  server: http.Server;
  close(): Promise<void>;
}

type NextHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/**
 * One HTTP server on one port: the v4 service paths go to the engine, socket.io to the hub,
 * everything else to Next (when withNext). Remote mode (SERVICE_BASE_URL) runs no engine.
 */
export async function startApp(config: Config, opts: { withNext: boolean; log?: (m: string) => void }): Promise<App> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const remote = config.serviceBaseUrl !== null;
  await ownDataDir(config.dataDir, log);
  const engine = remote ? null : await createEngine(config, { log: (m) => log(`[engine] ${m}`) });
  const store = engine?.ctx.store ?? (await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }));

  const auth = await createAuth({ store, dataDir: config.dataDir, sessionSecret: config.sessionSecret, sessionTtlHours: config.sessionTtlHours, initialPassword: config.supervisorInitialPassword, log, signInAccountBudget: config.signIn.accountFailures, signInMaxDelaySec: config.signIn.maxDelaySec });
  if (opts.withNext) await auth.bootstrap();
  const oidc = config.oidc ? createOidc({ settings: config.oidc, auth, store, publicBaseUrl: config.publicBaseUrl, log }) : null;
  if (config.oidc) log(`> sign-in with OpenID Connect: ${config.oidc.issuer.href}${config.publicBaseUrl ? "" : " (no PUBLIC_BASE_URL: only a localhost address can be its redirect URI)"}`);
  const gateOptions: GateOptions = {
    auth,
    dev: config.dev,
    trustProxy: config.trustProxy,
    publicBaseUrl: config.publicBaseUrl,
    mediaOrigins: config.serviceBaseUrl ? [new URL(config.serviceBaseUrl).origin] : [],
    maxPublicBodyBytes: config.limits.bodyMaxBytes,
  };

  let nextHandler: NextHandler | null = null;
  let closeNext: (() => Promise<void>) | null = null;
  if (opts.withNext) {
    const next = (await import("next")).default;
    const app = next({ dev: config.dev, dir: process.cwd(), hostname: "localhost", port: config.port });
    await app.prepare();
    nextHandler = app.getRequestHandler() as NextHandler;
    closeNext = () => app.close();
  }

  // slow-loris: a client must send its headers within 15 s and a whole request within 60 s (docs/security.md "Limits")
  // GET /metrics for Prometheus: its networks or its token only (server/metrics); an engine's gauges while it runs
  const metricsAllow = allowList(config.metrics.allow);
  // behind a reverse proxy (TRUST_PROXY=1) every visitor comes from the proxy's address: only the token lets in
  const metricsAccess = { ...config.metrics, tokenOnly: config.trustProxy };
  if (config.trustProxy && !config.metrics.token) log("> TRUST_PROXY=1 without METRICS_TOKEN: GET /metrics is refused to everyone (behind a proxy its networks cannot be told apart); set METRICS_TOKEN to scrape it");
  const unwatch = engine ? watchEngine(engine) : () => undefined;
  const server = http.createServer({ headersTimeout: 15_000, requestTimeout: 60_000, connectionsCheckingInterval: 5_000 }, (req, res) => {
    try {
      route(req, res);
    } catch (err) {
      // a request must never take the process down (without Next's handler an uncaught error exits it)
      log(`request ${req.method} ${String(req.url).slice(0, 200)} failed: ${(err as Error).stack ?? err}`);
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json", connection: "close" }).end(JSON.stringify({ error: "internal error" }));
      else res.destroy();
    }
  });
  function route(req: http.IncomingMessage, res: http.ServerResponse): void {
    // one reading of the request target for every layer (engine, gate, Next): anything ambiguous is refused first
    if (readRequestTarget(req.url ?? "/") === null) {
      res.writeHead(400, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", connection: "close" }).end(JSON.stringify({ error: "malformed request target" }));
      return;
    }
    // a Host that is not exactly host[:port] (`evil.example\\x`) never becomes a link, an origin or a CSP source
    if (req.headers.host !== undefined && !plainHost(req.headers.host)) {
      res.writeHead(400, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", connection: "close" }).end(JSON.stringify({ error: "malformed Host header" }));
      return;
    }
    if (serveMetrics(req, res, metricsAccess, metricsAllow)) return;
    if (engine?.handle(req, res)) return;
    if (nextHandler) return void dashboard(nextHandler, req, res);
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  }
  // the dashboard (pages, its API, the callback receivers) sits behind the sign-in gate (server/auth/gate.ts)
  function dashboard(next: NextHandler, req: http.IncomingMessage, res: http.ServerResponse) {
    gate(gateOptions, req, res)
      .then((answered) => (answered ? undefined : next(req, res)))
      .catch((err: Error) => {
        log(`dashboard gate: ${err.stack ?? err}`);
        if (!res.headersSent) res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ error: "dashboard unavailable, try again" }));
      });
  }
  // live updates only for signed-in dashboard users; without the dashboard nobody may subscribe
  // (same-site only, a role that may view, not a pending one-time password; cut when the session ends)
  // (server/auth/hub-access.ts; the hub re-checks its connections' sessions every minute)
  const hubSessions = hubAccess(auth, gateOptions);
  const hub = createHub(server, async (req) => (opts.withNext ? hubSessions.authorize(req) : null), { redisUrl: config.redisUrl, liveSessions: hubSessions.liveSessions });
  auth.onSessionsEnded((q) => hub.disconnect(q));
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const port = (server.address() as AddressInfo).port;
  const local = `http://127.0.0.1:${port}`;
  for (const o of [local, `http://localhost:${port}`, config.publicBaseUrl]) if (o) engine?.addOwnOrigin(o);

  const rtmp: RtmpServer | null = config.rtmpPort > 0 ? await startRtmpServer({ rtmpPort: config.rtmpPort, httpPort: config.rtmpHttpPort, host: config.host, access: ingestAccess(config.ingest), whip: true, webrtc: config.webrtc, log }).catch((err: Error) => (log(`RTMP ingest not started: ${err.message}`), null)) : null;
  if (rtmp) {
    // the service may pull from this server's own ingest even without ALLOW_PRIVATE_NETWORKS
    for (const host of ["127.0.0.1", "localhost"]) {
      engine?.addOwnMediaOrigin(`rtmp://${host}:${rtmp.rtmpPort}`);
      engine?.addOwnMediaOrigin(`http://${host}:${rtmp.httpPort}`);
    }
    log(`> RTMP ingest on rtmp://localhost:${rtmp.rtmpPort}/live/<key> (HTTP-FLV on :${rtmp.httpPort}, WHIP on http://localhost:${rtmp.httpPort}/whip/<key>)`);
  }
  const capabilities = () => engine?.ctx.capabilities() ?? capabilityTable();
  const dashboardApi = createDashboard({
    store,
    // files uploaded from the Files page: on disk beside the media, fetched by the service through a signed link
    uploads: createUploads({ mediaRoot: `${config.dataDir}/media`, secret: await dataDirSecret(config.dataDir, "upload-url"), maxBytes: config.uploadMaxBytes }),
    serviceBaseUrl: config.serviceBaseUrl ?? local,
    // a remote service: its accessKey over HTTP; the embedded one: in process, as the dashboard's own principal
    accessKey: engine ? "" : (config.serviceAccessKey ?? ""),
    // media links in the dashboard's own results are relative ("/media/…?exp&sig"): the browser loads them
    // same-origin under whatever name it uses for this server (localhost, 127.0.0.1, a proxy's name)
    fetch: engine ? inProcessFetch((p, body) => engine.call(p, body, "")) : undefined,
    // the embedded engine signs the dashboard's callbacks with a secret of its own; a remote one with what SERVICE_SIGNING_SECRET names
    signingSecret: engine ? engine.dashboardSigningSecret : config.callbackSigning.serviceSecret,
    embedded: !remote,
    pollIntervalMs: config.dashboardPollIntervalMs,
    receiverOrigin: config.publicBaseUrl ?? local,
    capabilities,
    publish: (e) => hub.fileProgress(e),
    publishStreamEvent: (e) => hub.streamEvent(e),
    publishStreamSummary: (s) => hub.streamSummary(s),
    // the embedded service's API tasks appear on the dashboard under their accessKey's name (a remote service has no such hook)
    apiKeyNames: engine ? accessKeyNames(engine.keys, config.accessKeyNames, engine.generatedKey) : null,
    log,
  });
  const demo = createDemo({
    rtmp,
    publicHost: config.publicBaseUrl ? new URL(config.publicBaseUrl).hostname : null,
    supportedImgTypes: () => capabilities().filter((c) => c.group === "imgType" && c.supported).map((c) => c.type),
    startStream: (input) => dashboardApi.streams.start(input),
    log,
  });
  engine?.ctx.events.on("file:progress", (e) => void dashboardApi.onFileProgress(e).catch((err) => log(`dashboard: ${err}`)));
  engine?.streams.onHealth((u) => hub.streamHealth(u));
  engine?.ctx.dispatcher.on("queued", (q) => void dashboardApi.mirrorCallback(q).catch((err) => log(`dashboard: ${err}`)));
  // deletes results, frames and audio clips past RESULT_RETENTION_HOURS (docs/operations.md "Retention")
  const retention = new RetentionJob({ store, mediaRoot: `${config.dataDir}/media`, retentionHours: config.retentionHours, sweepMinutes: config.retentionSweepMinutes, log });
  const status = createStatus({ store, dataDir: config.dataDir, retention, engine });
  // runs of hits become incidents as the receivers accept callbacks (docs/dashboard.md "Incidents and the review queue")
  // review queues route incidents as they are created and count them (docs/pending/queues.md); bound below
  let queues: Queues | null = null;
  const incidents = createIncidents({
    db: store.db,
    gapSec: config.incidentGapSec,
    publish: (i) => {
      hub.incident(i);
      queues?.changed();
    },
    route: (ids) => queues?.route(ids) ?? Promise.resolve(),
    readMedia: mediaReader({ mediaRoot: engine?.ctx.mediaRoot ?? null, serviceOrigin: config.serviceBaseUrl ? new URL(config.serviceBaseUrl).origin : null }),
    log,
    exports: config.incidentExports,
  });
  queues = createQueues({ db: store.db, leaseSec: config.claimLeaseSec, detail: (id) => incidents.get(id), publish: (e) => hub.queues(e), log });
  // rules run after a callback's incidents are grouped (incident conditions see them); never act twice (server/rules)
  const rules = createRules({
    db: store.db,
    closeStream: (id) => dashboardApi.streams.close(id),
    decide: async (id, note, by) => (await incidents.decide(id, { decision: "confirmed", note }, by)) !== null,
    assign: async (id, assignee, by) => {
      const a = await incidents.assign(id, { assignee }, by);
      return a.ok ? { ok: true } : { ok: false, error: a.error };
    },
    route: (id, queue) => queues!.pin(id, queue),
    alert: (a) => void hub.io.to(INCIDENTS_ROOM).emit("rule:alert", { ...a, at: new Date().toISOString() }),
    allowPrivateNetworks: config.allowPrivateNetworks,
    allowNetworks: config.allowNetworks,
    audit: (e) => auth.audit({ ...e, ip: "rule", role: null }),
    log,
  });
  registerIncidentFeed(store.db, async (input) => {
    await incidents.feed(input);
    await rules.feed(input);
  });
  const settings = createSettingsApi({ store: createSettingsStore(store.db), incidentLevel: async (id) => (await incidents.get(id))?.riskLevel ?? null });
  const reviewMetrics = createReviewMetrics({ db: store.db });
  setRegistry({ engine, dashboard: dashboardApi, hub, demo, auth: createAuthApi(auth, { onItemReview: (r) => incidents.decideByItem(r) }), status, incidents, queues, reviewMetrics, rules, settings, oidc });
  await engine?.start();
  retention.start();
  void rules.resume();

  return {
    url: local,
    port,
    engine,
    server,
    async close() {
      queues?.close();
      await retention.stop();
      await demo.stop();
      await rtmp?.close();
      await hub.close();
      await new Promise<void>((r) => server.close(() => r()));
      unwatch();
      await engine?.stop();
      if (!engine) await store.close();
      await closeNext?.();
    },
  };
}
