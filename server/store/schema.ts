import { bigint, bigserial, doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { HealthEventKind, StreamHealthSnapshot } from "../../lib/stream-health";

/** One moderation task: a video file, or (later) a live video/audio stream. */
export const tasks = pgTable(
  "tasks",
  {
    requestId: text("request_id").primaryKey(),
    kind: text("kind").$type<TaskKind>().notNull(),
    keyId: text("key_id").notNull(), // sha256 prefix of the accessKey, never the key itself
    appId: text("app_id").notNull(),
    eventId: text("event_id").notNull(),
    btId: text("bt_id"),
    status: text("status").$type<TaskStatus>().notNull(),
    request: jsonb("request").$type<Record<string, unknown>>().notNull(),
    result: jsonb("result").$type<Record<string, unknown>>(),
    resultCode: integer("result_code"),
    progress: jsonb("progress").$type<TaskProgress>().notNull(),
    baseUrl: text("base_url").notNull(),
    runCount: integer("run_count").notNull().default(0),
    /** streams: what makes two submissions "the same stream" (docs/api.md §1.4) */
    identity: text("identity"),
    /** streams: running state that must survive a restart */
    state: jsonb("state").$type<StreamState>(),
    /** streams: credentials the pull needs and no echo may show (server/task/source-secrets.ts); null when none */
    secrets: jsonb("secrets").$type<TaskSecrets>(),
    /** scaled mode: the worker holding this live stream, until when, and a Close asked on another node */
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    closeRequestedAt: timestamp("close_requested_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("tasks_bt_idx").on(t.kind, t.keyId, t.btId), index("tasks_status_idx").on(t.status)],
);

/** The callback outbox: one row per body to deliver, retried on its schedule. */
export const deliveries = pgTable(
  "deliveries",
  {
    id: text("id").primaryKey(), // also sent as webhook-id so receivers can drop duplicates
    requestId: text("request_id").notNull(),
    seq: integer("seq").notNull(),
    url: text("url").notNull(),
    body: text("body").notNull(),
    schedule: text("schedule").notNull(),
    status: text("status").$type<"pending" | "delivered" | "exhausted">().notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [index("deliveries_due_idx").on(t.status, t.nextAttemptAt), index("deliveries_task_idx").on(t.requestId, t.seq)],
);

export const deliveryAttempts = pgTable(
  "delivery_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    attempt: integer("attempt").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    httpStatus: integer("http_status"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
  },
  (t) => [index("delivery_attempts_delivery_idx").on(t.deliveryId)],
);

/** Files the dashboard submitted (to the embedded service or a remote one), and the embedded service's API files. */
export const dashboardFiles = pgTable("dashboard_files", {
  requestId: text("request_id").primaryKey(),
  btId: text("bt_id").notNull(),
  url: text("url").notNull(),
  title: text("title"),
  serviceBaseUrl: text("service_base_url").notNull(),
  receiverToken: text("receiver_token").notNull(),
  status: text("status").$type<"queued" | "processing" | "done" | "failed">().notNull(),
  riskLevel: text("risk_level"),
  code: integer("code"),
  framesDone: integer("frames_done").notNull().default(0),
  framesTotal: integer("frames_total").notNull().default(0),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  callbackReceivedAt: timestamp("callback_received_at", { withTimezone: true, mode: "date" }),
  /** "api": submitted through the public API with an accessKey, mirrored by server/dashboard/api-tasks.ts */
  origin: text("origin").$type<"dashboard" | "api">().notNull().default("dashboard"),
  /** name of that accessKey (ACCESS_KEY_NAMES); never the key */
  keyName: text("key_name"),
  /** the end user the contract's tokenId names (null: none given; migration 0271_source_token_id) */
  tokenId: text("token_id"),
});

/** Streams the dashboard started (and the embedded service's API streams), with what the wall shows. */
export const dashboardStreams = pgTable("dashboard_streams", {
  requestId: text("request_id").primaryKey(),
  kind: text("kind").$type<"video" | "audio">().notNull(),
  url: text("url").notNull(),
  title: text("title"),
  serviceBaseUrl: text("service_base_url").notNull(),
  receiverToken: text("receiver_token").notNull(),
  status: text("status").$type<"running" | "ended">().notNull(),
  currentRisk: text("current_risk"),
  worstRisk: text("worst_risk"),
  lastResultAt: timestamp("last_result_at", { withTimezone: true, mode: "date" }),
  startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }).notNull(),
  endedAt: timestamp("ended_at", { withTimezone: true, mode: "date" }),
  endErrorCode: integer("end_error_code"),
  endReason: text("end_reason"),
  frames: integer("frames").notNull().default(0),
  segments: integer("segments").notNull().default(0),
  framesChecked: integer("frames_checked").notNull().default(0),
  framesNotChecked: integer("frames_not_checked").notNull().default(0),
  detectStep: integer("detect_step"),
  /** "api": submitted through the public API with an accessKey, mirrored by server/dashboard/api-tasks.ts */
  origin: text("origin").$type<"dashboard" | "api">().notNull().default("dashboard"),
  /** name of that accessKey (ACCESS_KEY_NAMES); never the key */
  keyName: text("key_name"),
  /** imgUrl of the newest frame callback (checked or not): the wall's thumbnail */
  lastFrameUrl: text("last_frame_url"),
  /** the end user the contract's tokenId names (null: none given; migration 0271_source_token_id) */
  tokenId: text("token_id"),
});

/** Every callback body the dashboard's receivers accepted. */
export const receivedCallbacks = pgTable(
  "received_callbacks",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: text("delivery_id"),
    kind: text("kind").notNull(),
    requestId: text("request_id").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull(),
    body: jsonb("body").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("received_callbacks_task_idx").on(t.requestId)],
);

/** Incidents: runs of hits of one source, medium and risk category (server/incidents; migration 0200_incidents). */
export const incidents = pgTable(
  "incidents",
  {
    id: text("id").primaryKey(),
    sourceKind: text("source_kind").$type<"stream" | "file">().notNull(),
    requestId: text("request_id").notNull(),
    sourceRef: text("source_ref").notNull(),
    title: text("title"),
    url: text("url"),
    media: text("media").$type<"frame" | "audio">().notNull(),
    label: text("label").notNull(),
    labels: jsonb("labels").$type<string[]>().notNull(),
    riskLevel: text("risk_level").$type<"REVIEW" | "REJECT">().notNull(),
    timeBase: text("time_base").$type<"epoch" | "offset">().notNull(),
    startT: doublePrecision("start_t").notNull(),
    endT: doublePrecision("end_t").notNull(),
    hits: integer("hits").notNull(),
    peak: jsonb("peak").$type<Record<string, unknown>>().notNull(),
    peakScore: doublePrecision("peak_score").notNull(),
    status: text("status").$type<"open" | "confirmed" | "cleared" | "escalated">().notNull(),
    assignee: text("assignee"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull(),
    /** review queues (server/queues; migration 0300_review_queues): the queue routed to, its claim, the facts routing read */
    queueId: text("queue_id"),
    claimedBy: text("claimed_by"),
    claimExpiresAt: timestamp("claim_expires_at", { withTimezone: true, mode: "date" }),
    routeFacts: jsonb("route_facts").$type<{ appId: string | null; eventId: string | null; tokenId: string | null; lists: string[]; pinned?: string }>(),
  },
  (t) => [index("incidents_source_idx").on(t.requestId, t.media, t.label), index("incidents_status_idx").on(t.status, t.createdAt)],
);

export const incidentHits = pgTable(
  "incident_hits",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    incidentId: text("incident_id").notNull(),
    requestId: text("request_id").notNull(),
    media: text("media").notNull(),
    label: text("label").notNull(),
    itemId: text("item_id").notNull(),
    t: doublePrecision("t").notNull(),
    hit: jsonb("hit").$type<Record<string, unknown>>().notNull(),
    body: jsonb("body").$type<Record<string, unknown>>().notNull(),
    callbackId: bigint("callback_id", { mode: "number" }),
  },
  (t) => [index("incident_hits_incident_idx").on(t.incidentId), uniqueIndex("incident_hits_item_uniq").on(t.requestId, t.media, t.label, t.itemId)],
);

export const incidentDecisions = pgTable(
  "incident_decisions",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    incidentId: text("incident_id").notNull(),
    decision: text("decision").notNull(),
    note: text("note"),
    username: text("username").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    /** set when the decision was taken on one hit (the item review of a frame or segment): "frame at 0:06" */
    itemLabel: text("item_label"),
  },
  (t) => [index("incident_decisions_incident_idx").on(t.incidentId)],
);

/** Live stream health changes (server/health; migration 0220_stream_health_events), with the snapshot at that moment. */
export const streamHealthEvents = pgTable(
  "stream_health_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: text("request_id").notNull(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull(),
    kind: text("kind").$type<HealthEventKind>().notNull(),
    message: text("message").notNull(),
    attempt: integer("attempt"),
    of: integer("retry_of"),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    errorCode: integer("error_code"),
    snapshot: jsonb("snapshot").$type<StreamHealthSnapshot>().notNull(),
  },
  (t) => [index("stream_health_events_task_idx").on(t.requestId, t.id)],
);

export type TaskKind = "video" | "videostream" | "audiostream";
export type TaskStatus = "queued" | "processing" | "done" | "failed" | "running" | "ended";
export interface TaskProgress {
  framesDone: number;
  framesTotal: number;
  segmentsDone: number;
  segmentsTotal: number;
}
/** A task's credentials, kept out of `request` (which is echoed in requestParams and shown on the dashboard). */
export interface TaskSecrets {
  /** headers the source's signalling requests carry (WHEP: Authorization) */
  sourceHeaders?: Record<string, string>;
}

export interface StreamState {
  nextFrameIndex: number;
  nextSegmentIndex: number;
  worstRisk: "PASS" | "REVIEW" | "REJECT";
  gotFrame: boolean;
  /** seconds of media moderated so far */
  streamTimeSec: number;
  endReason?: "closed" | "ended" | "failed" | "restart-failed";
  endErrorCode?: number;
  /** capture time (ms since epoch) of the newest frame taken, and end of the newest audio segment: a pull that takes over continues after them */
  lastFrameAt?: number;
  lastSegmentEndAt?: number;
}
export type TaskRow = typeof tasks.$inferSelect;
export type DeliveryRow = typeof deliveries.$inferSelect;

/** Scaled mode: every process that runs live streams, its declared capacity and load (a heartbeat). */
export const streamWorkers = pgTable("stream_workers", {
  name: text("name").primaryKey(),
  capacity: integer("capacity").notNull(),
  held: integer("held").notNull(),
  behind: integer("behind").notNull(),
  heartbeatAt: timestamp("heartbeat_at", { withTimezone: true, mode: "date" }).notNull(),
});

/** Scaled mode: a stream its holder is handing over gracefully, and the worker standing by to take it (server/scale). */
export const streamHandovers = pgTable("stream_handovers", {
  requestId: text("request_id").primaryKey(),
  fromOwner: text("from_owner").notNull(),
  toOwner: text("to_owner"),
  readyAt: timestamp("ready_at", { withTimezone: true, mode: "date" }),
  createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
});
