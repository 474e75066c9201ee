import os from "node:os";
import path from "node:path";
import { checkedSecret, parseSigningSecrets } from "./callback/signature";
import { LOOPBACK, publishKeyProblem, type IngestAccessConfig } from "./demo/ingest-access";
import { NetworkList } from "./net/networks";
import { parseWebrtcNetwork, type WebrtcNetwork } from "./ingest/webrtc/network";
import { loadOidcSettings, type OidcSettings } from "./auth/oidc/settings";

/** Every environment variable the product reads; docs/configuration.md documents each. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  accessKeys: string[] | null; // null → generated key in DATA_DIR
  /** ACCESS_KEY_NAMES: the dashboard's names for MODERATION_ACCESS_KEYS, in the same order (never the keys themselves) */
  accessKeyNames: string[];
  allowPrivateNetworks: boolean;
  /** ALLOW_NETWORKS: private networks (CIDR list) media and callback URLs may reach while other private addresses stay refused */
  allowNetworks: NetworkList;
  publicBaseUrl: string | null;
  serviceBaseUrl: string | null; // dashboard → remote service; null = embedded
  serviceAccessKey: string | null;
  callbackRetryTimeScale: number;
  streamRetryTimeScale: number;
  /** STREAM_DRAIN_TIMEOUT_SEC: after a stream's end begins, how long frames/segments already captured may still be detected */
  streamDrainTimeoutSec: number;
  /** STREAM_FRAME_BACKLOG: frames of one stream waiting for detection; past it the oldest is called back not checked */
  streamFrameBacklog: number;
  /** FRAME_REUSE (default 1): a live frame unchanged from the stream's last detected one reuses its verdict (0: every frame detected) */
  frameReuse: boolean;
  /** LIVE_KEYFRAMES (default 1): at a cadence of 2 s or more live pulls decode keyframes only (0: every frame) */
  liveKeyframes: boolean;
  detectWorkers: number;
  /** DETECT_BATCH (default 4): frames waiting at the same moment detected together, NSFW as one model batch (1: never) */
  detectBatch: number;
  /** OCR_READER: what reads image text (paddle | tesseract) */
  ocrReader: "paddle" | "tesseract";
  /** SPEECH_RECOGNISER: the offline recogniser of speech lists (moonshine | pocketsphinx); TRANSCRIBE_BASE_URL overrides both */
  speechRecogniser: "moonshine" | "pocketsphinx";
  fileConcurrency: number;
  maxConcurrentStreams: number;
  /** streams this process takes in all (0 = no limit); default from the CPU count and the measured cost per stream */
  streamCapacity: number;
  /** a new stream is refused while a running one fell behind within this many seconds (0 = never) */
  streamAdmissionWindowSec: number;
  /** a frame checked more than this many seconds after its capture (a segment after its end) counts as behind (0 = never) */
  streamAdmissionLagSec: number;
  /** DASHBOARD_MAX_STREAMS: running streams the embedded dashboard's own principal may hold */
  dashboardMaxStreams: number;
  rtmpPort: number;
  rtmpHttpPort: number;
  fileMaxBytes: number;
  fileMaxDurationSec: number;
  retentionHours: number;
  /** minutes between retention sweeps (the first runs shortly after start) */
  retentionSweepMinutes: number;
  /** SERVICE_ONLY=1: the moderation service (and the dashboard's API objects) without Next pages */
  serviceOnly: boolean;
  dashboardPollIntervalMs: number;
  /** INCIDENT_GAP_SEC: hits of one category further apart than this start a new incident */
  incidentGapSec: number;
  /** CLAIM_LEASE_SEC: a review queue claim the reviewer's page stopped renewing goes back to its queue after this long */
  claimLeaseSec: number;
  /** INCIDENT_EXPORTS_PER_USER / INCIDENT_EXPORTS_MAX: evidence exports running at once per account / in all (0 = no limit) */
  incidentExports: { perUser: number; max: number };
  /** Live preview and evidence clips (docs/live-streams.md "Live preview and evidence clips"); retentionMin 0 = no preview */
  preview: { retentionMin: number; segmentSec: number; clipBeforeSec: number; clipAfterSec: number };
  /** Limits (docs/security.md "Limits"); 0 disables a rate limit. */
  limits: {
    ratePerMinute: number;
    rateBurst: number;
    authFailPerMinute: number;
    bodyMaxBytes: number;
    fileQueueMax: number;
    mediaMaxWidth: number;
    mediaMaxHeight: number;
    fileProcessMinSec: number;
    fileProcessTimeFactor: number;
    downloadStallTimeoutSec: number;
  };
  /** Standard Webhooks signing of callbacks (docs/api.md "Signed callbacks"); perKey is by accessKey and wins. */
  callbackSigning: { secret: string | null; perKey: Record<string, string>; serviceSecret: string | null };
  /** Undelivered callbacks per accessKey / in total before new submissions get 1901. */
  callbackQueueMax: number;
  callbackQueueMaxTotal: number;
  /** OpenAI-compatible speech-to-text endpoint (…/audio/transcriptions); null = offline pocketsphinx */
  transcribe: { baseUrl: string; apiKey?: string; model?: string } | null;
  /** dashboard sign-in: cookie signing key (null → generated in DATA_DIR), session lifetime, first supervisor's password */
  sessionSecret: string | null;
  /** OIDC_*: sign-in with the company's identity provider (docs: configuration); null = local accounts only */
  oidc: OidcSettings | null;
  sessionTtlHours: number;
  supervisorInitialPassword: string | null;
  /** SIGNIN_ACCOUNT_FAILURES / SIGNIN_MAX_DELAY_SEC: an account's failed sign-ins from all addresses before its attempts are spaced out, and the longest space */
  signIn: { accountFailures: number; maxDelaySec: number };
  /** behind a reverse proxy: take the client address from X-Forwarded-For and https from X-Forwarded-Proto */
  trustProxy: boolean;
  /** REDIS_URL: socket.io events travel between dashboard nodes (server/hub) */
  redisUrl: string | null;
  /**
   * Scaled mode (REDIS_URL and DATABASE_URL both set): video files go through a BullMQ queue on Redis and are run by
   * the processes that take work (`npm run worker`, or a node with WORKER=1); see docs/deployment.md.
   */
  scale: {
    on: boolean;
    /** this process takes file jobs (always outside scaled mode; WORKER=1 or `npm run worker` inside it) */
    takesFiles: boolean;
    /** this process runs live streams: every node outside scaled mode; inside it the processes that take work, each holding a lease per stream */
    runsStreams: boolean;
    /** a stream whose worker stopped renewing its lease this long ago is taken over by another (STREAM_LEASE_SEC) */
    streamLeaseSec: number;
    /** this process's name in stream leases and the workers table (WORKER_NAME; default host-pid) */
    workerName: string;
    /** BullMQ key prefix (QUEUE_PREFIX): several deployments, or test runs, can share one Redis */
    queuePrefix: string;
    /** a file job whose worker stopped renewing its lock this long ago is taken by another worker (FILE_JOB_LOCK_SEC) */
    fileJobLockSec: number;
  };
  /** GET /metrics: a bearer token (METRICS_TOKEN) and the networks let in without it (METRICS_ALLOW) */
  metrics: { token: string | null; allow: string[] };
  /** the embedded RTMP / HTTP-FLV ingest's access (server/demo/ingest-access.ts) */
  ingest: IngestAccessConfig;
  /** WebRTC peers' STUN/TURN servers, UDP ports and relay-only (WEBRTC_*, server/ingest/webrtc/network.ts) */
  webrtc: WebrtcNetwork;
  dev: boolean;
  /** UPLOAD_MAX_MB: largest file the Files page may upload (server/dashboard/uploads.ts) */
  uploadMaxBytes: number;
}

function scaleConfig(env: NodeJS.ProcessEnv): Config["scale"] {
  const on = Boolean(env.REDIS_URL && env.DATABASE_URL);
  const workerOnly = env.PROCESS_ROLE === "worker";
  return {
    on,
    takesFiles: !on || workerOnly || env.WORKER === "1",
    runsStreams: !on || workerOnly || env.WORKER === "1",
    streamLeaseSec: Math.max(2, num("STREAM_LEASE_SEC", 10, env)),
    queuePrefix: env.QUEUE_PREFIX || "moderation",
    workerName: env.WORKER_NAME || `${os.hostname()}-${process.pid}`,
    fileJobLockSec: Math.max(2, num("FILE_JOB_LOCK_SEC", 15, env)),
  };
}

/** INGEST_PUBLISH_KEY, refused at start when too short to be a secret. */
function checkedPublishKey(key: string | null): string | null {
  const problem = publishKeyProblem(key);
  if (problem) throw new Error(problem);
  return key;
}

function num(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

const list = (s: string) => s.split(",").map((x) => x.trim()).filter(Boolean);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const keys = (env.MODERATION_ACCESS_KEYS ?? "").split(",").map((k) => k.trim()).filter(Boolean);
  return {
    port: num("PORT", 3000, env),
    uploadMaxBytes: Math.max(1, num("UPLOAD_MAX_MB", 500, env)) * 1024 * 1024,
    host: env.HOST || "0.0.0.0",
    dataDir: path.resolve(env.DATA_DIR || ".data"),
    databaseUrl: env.DATABASE_URL || null,
    accessKeys: keys.length ? keys : null,
    accessKeyNames: (env.ACCESS_KEY_NAMES ?? "").split(",").map((n) => n.trim()),
    allowPrivateNetworks: env.ALLOW_PRIVATE_NETWORKS === "1",
    allowNetworks: NetworkList.parse(env.ALLOW_NETWORKS),
    publicBaseUrl: env.PUBLIC_BASE_URL ? env.PUBLIC_BASE_URL.replace(/\/+$/, "") : null,
    serviceBaseUrl: env.SERVICE_BASE_URL ? env.SERVICE_BASE_URL.replace(/\/+$/, "") : null,
    serviceAccessKey: env.SERVICE_ACCESS_KEY || null,
    callbackRetryTimeScale: num("CALLBACK_RETRY_TIME_SCALE", 1, env),
    streamRetryTimeScale: num("STREAM_RETRY_TIME_SCALE", 1, env),
    streamDrainTimeoutSec: num("STREAM_DRAIN_TIMEOUT_SEC", 30, env),
    streamFrameBacklog: Math.max(1, Math.floor(num("STREAM_FRAME_BACKLOG", 4, env))),
    frameReuse: env.FRAME_REUSE !== "0",
    liveKeyframes: env.LIVE_KEYFRAMES !== "0",
    // one detector thread per core by default: frames of one file and of different streams are detected in parallel
    detectWorkers: Math.max(1, Math.floor(num("DETECT_WORKERS", os.availableParallelism(), env))),
    detectBatch: Math.max(1, Math.floor(num("DETECT_BATCH", 4, env))),
    ocrReader: ocrReaderOf(env.OCR_READER),
    speechRecogniser: speechRecogniserOf(env.SPEECH_RECOGNISER),
    fileConcurrency: Math.max(1, Math.floor(num("FILE_CONCURRENCY", 1, env))),
    maxConcurrentStreams: Math.floor(num("MAX_CONCURRENT_STREAMS", 8, env)),
    // measured (npm run bench liveCapacity, docs/performance.md): 5 streams per core at the default cadence
    streamCapacity: Math.max(0, Math.floor(num("STREAM_CAPACITY", 5 * os.availableParallelism(), env))),
    streamAdmissionWindowSec: Math.max(0, num("STREAM_ADMISSION_WINDOW_SEC", 30, env)),
    streamAdmissionLagSec: Math.max(0, num("STREAM_ADMISSION_LAG_SEC", 20, env)),
    dashboardMaxStreams: Math.floor(num("DASHBOARD_MAX_STREAMS", 8, env)),
    rtmpPort: Math.floor(num("RTMP_PORT", 1935, env)),
    rtmpHttpPort: Math.floor(num("RTMP_HTTP_PORT", 8000, env)),
    fileMaxBytes: num("FILE_MAX_BYTES", 300 * 1024 * 1024, env),
    fileMaxDurationSec: num("FILE_MAX_DURATION_SEC", 2 * 3600, env),
    retentionHours: num("RESULT_RETENTION_HOURS", 72, env),
    retentionSweepMinutes: num("RETENTION_SWEEP_MINUTES", 60, env),
    serviceOnly: env.SERVICE_ONLY === "1",
    dashboardPollIntervalMs: num("DASHBOARD_POLL_INTERVAL_MS", 2000, env),
    incidentGapSec: num("INCIDENT_GAP_SEC", 10, env),
    claimLeaseSec: Math.max(2, num("CLAIM_LEASE_SEC", 300, env)),
    incidentExports: { perUser: Math.floor(num("INCIDENT_EXPORTS_PER_USER", 3, env)), max: Math.floor(num("INCIDENT_EXPORTS_MAX", 8, env)) },
    preview: {
      retentionMin: num("PREVIEW_RETENTION_MIN", 30, env),
      segmentSec: Math.min(6, Math.max(1, num("PREVIEW_SEGMENT_SEC", 1, env))),
      clipBeforeSec: num("CLIP_BEFORE_SEC", 10, env),
      clipAfterSec: num("CLIP_AFTER_SEC", 10, env),
    },
    limits: {
      ratePerMinute: num("RATE_LIMIT_PER_MINUTE", 600, env),
      rateBurst: num("RATE_LIMIT_BURST", 0, env), // 0 → RATE_LIMIT_PER_MINUTE
      authFailPerMinute: num("AUTH_FAIL_LIMIT_PER_MINUTE", 30, env),
      bodyMaxBytes: Math.max(1024, num("BODY_MAX_BYTES", 1024 * 1024 + 64 * 1024, env)),
      fileQueueMax: Math.floor(num("FILE_QUEUE_MAX", 100, env)),
      mediaMaxWidth: num("MEDIA_MAX_WIDTH", 7680, env),
      mediaMaxHeight: num("MEDIA_MAX_HEIGHT", 4320, env),
      fileProcessMinSec: num("FILE_PROCESS_MIN_SEC", 120, env),
      fileProcessTimeFactor: num("FILE_PROCESS_TIME_FACTOR", 4, env),
      downloadStallTimeoutSec: num("DOWNLOAD_STALL_TIMEOUT_SEC", 30, env),
    },
    callbackSigning: {
      secret: checkedSecret(env.CALLBACK_SIGNING_SECRET),
      perKey: parseSigningSecrets(env.CALLBACK_SIGNING_SECRETS),
      serviceSecret: checkedSecret(env.SERVICE_SIGNING_SECRET),
    },
    callbackQueueMax: Math.floor(num("CALLBACK_QUEUE_MAX", 10_000, env)),
    callbackQueueMaxTotal: Math.floor(num("CALLBACK_QUEUE_MAX_TOTAL", 50_000, env)),
    transcribe: env.TRANSCRIBE_BASE_URL ? { baseUrl: env.TRANSCRIBE_BASE_URL.replace(/\/+$/, ""), apiKey: env.TRANSCRIBE_API_KEY || undefined, model: env.TRANSCRIBE_MODEL || undefined } : null,
    sessionSecret: env.SESSION_SECRET || null,
    oidc: loadOidcSettings(env),
    sessionTtlHours: num("SESSION_TTL_HOURS", 12, env),
    supervisorInitialPassword: env.SUPERVISOR_INITIAL_PASSWORD || null,
    signIn: { accountFailures: Math.max(1, Math.floor(num("SIGNIN_ACCOUNT_FAILURES", 10, env))), maxDelaySec: Math.max(1, num("SIGNIN_MAX_DELAY_SEC", 60, env)) },
    trustProxy: env.TRUST_PROXY === "1",
    redisUrl: env.REDIS_URL || null,
    scale: scaleConfig(env),
    metrics: { token: env.METRICS_TOKEN || null, allow: list(env.METRICS_ALLOW ?? "127.0.0.1/8,::1") },
    ingest: { playAllow: list(env.INGEST_PLAY_ALLOW ?? LOOPBACK.join(",")), publishAllow: list(env.INGEST_PUBLISH_ALLOW ?? LOOPBACK.join(",")), publishKey: checkedPublishKey(env.INGEST_PUBLISH_KEY || null), keyFailuresPerMinute: num("INGEST_KEY_FAILURES_PER_MINUTE", 10, env) },
    webrtc: parseWebrtcNetwork(env),
    dev: env.NODE_ENV !== "production",
  };
}

function speechRecogniserOf(raw: string | undefined): "moonshine" | "pocketsphinx" {
  if (raw === undefined || raw === "" || raw === "moonshine") return "moonshine";
  if (raw === "pocketsphinx") return "pocketsphinx";
  throw new Error(`SPEECH_RECOGNISER must be moonshine or pocketsphinx, got "${raw}"`);
}

function ocrReaderOf(raw: string | undefined): "paddle" | "tesseract" {
  if (raw === undefined || raw === "" || raw === "paddle") return "paddle";
  if (raw === "tesseract") return "tesseract";
  throw new Error(`OCR_READER must be paddle or tesseract, got "${raw}"`);
}
