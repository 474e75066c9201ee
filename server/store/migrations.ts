import { INCIDENT_MIGRATIONS } from "../incidents/migrations";
import { QUEUE_MIGRATIONS } from "../queues/migrations";
import { RULE_MIGRATIONS } from "../rules/migrations";
import { SETTINGS_MIGRATIONS } from "../settings/migrations";
import { OIDC_MIGRATIONS } from "../auth/oidc/migrations";

/** Ordered SQL migrations; applied once each, recorded in schema_migrations. Never edit a shipped one. */
export const MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
  {
    id: "0001_init",
    sql: `
CREATE TABLE tasks (
  request_id text PRIMARY KEY,
  kind text NOT NULL,
  key_id text NOT NULL,
  app_id text NOT NULL,
  event_id text NOT NULL,
  bt_id text,
  status text NOT NULL,
  request jsonb NOT NULL,
  result jsonb,
  result_code integer,
  progress jsonb NOT NULL,
  base_url text NOT NULL,
  run_count integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX tasks_bt_idx ON tasks (kind, key_id, bt_id);
CREATE INDEX tasks_status_idx ON tasks (status);
CREATE TABLE deliveries (
  id text PRIMARY KEY,
  request_id text NOT NULL,
  seq integer NOT NULL,
  url text NOT NULL,
  body text NOT NULL,
  schedule text NOT NULL,
  status text NOT NULL,
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX deliveries_due_idx ON deliveries (status, next_attempt_at);
CREATE INDEX deliveries_task_idx ON deliveries (request_id, seq);
CREATE TABLE delivery_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL,
  attempt integer NOT NULL,
  at timestamptz NOT NULL,
  http_status integer,
  error text,
  duration_ms integer NOT NULL
);
CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id);
CREATE TABLE dashboard_files (
  request_id text PRIMARY KEY,
  bt_id text NOT NULL,
  url text NOT NULL,
  title text,
  service_base_url text NOT NULL,
  receiver_token text NOT NULL,
  status text NOT NULL,
  risk_level text,
  code integer,
  frames_done integer NOT NULL DEFAULT 0,
  frames_total integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  callback_received_at timestamptz
);
CREATE TABLE received_callbacks (
  id bigserial PRIMARY KEY,
  delivery_id text,
  kind text NOT NULL,
  request_id text NOT NULL,
  received_at timestamptz NOT NULL,
  body jsonb NOT NULL
);
CREATE INDEX received_callbacks_task_idx ON received_callbacks (request_id);
`,
  },
  {
    id: "0002_streams",
    sql: `
ALTER TABLE tasks ADD COLUMN identity text;
ALTER TABLE tasks ADD COLUMN state jsonb;
CREATE INDEX tasks_identity_idx ON tasks (kind, key_id, identity, status);
CREATE TABLE dashboard_streams (
  request_id text PRIMARY KEY,
  kind text NOT NULL,
  url text NOT NULL,
  title text,
  service_base_url text NOT NULL,
  receiver_token text NOT NULL,
  status text NOT NULL,
  current_risk text,
  worst_risk text,
  last_result_at timestamptz,
  started_at timestamptz NOT NULL,
  ended_at timestamptz,
  end_error_code integer,
  end_reason text,
  frames integer NOT NULL DEFAULT 0,
  segments integer NOT NULL DEFAULT 0
);
CREATE INDEX dashboard_streams_token_idx ON dashboard_streams (receiver_token);
CREATE INDEX dashboard_files_token_idx ON dashboard_files (receiver_token);
CREATE INDEX received_callbacks_delivery_idx ON received_callbacks (delivery_id);
`,
  },
  {
    id: "0100_auth",
    sql: `
CREATE TABLE users (
  id text PRIMARY KEY,
  username text NOT NULL UNIQUE,
  role text NOT NULL,
  password_hash text NOT NULL,
  must_change_password boolean NOT NULL DEFAULT false,
  disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  csrf_token text NOT NULL,
  ip text NOT NULL,
  user_agent text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE TABLE audit_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  username text,
  role text,
  action text NOT NULL,
  target text,
  outcome text NOT NULL,
  ip text NOT NULL,
  detail jsonb
);
CREATE INDEX audit_log_at_idx ON audit_log (at);
CREATE TABLE review_decisions (
  id bigserial PRIMARY KEY,
  target_kind text NOT NULL,
  target_id text NOT NULL,
  item text,
  decision text NOT NULL,
  note text,
  username text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX review_decisions_target_idx ON review_decisions (target_kind, target_id);
`,
  },
  {
    id: "0101_received_callbacks_unique",
    sql: `
DELETE FROM received_callbacks a USING received_callbacks b
  WHERE a.delivery_id IS NOT NULL AND a.delivery_id = b.delivery_id AND a.request_id = b.request_id AND a.id > b.id;
CREATE UNIQUE INDEX received_callbacks_delivery_uniq ON received_callbacks (request_id, delivery_id);
`,
  },
  {
    // frames the detectors skipped (detectType 2) are counted apart from checked ones; existing streams are recounted
    id: "0102_dashboard_streams_checked",
    sql: `
ALTER TABLE dashboard_streams ADD COLUMN frames_checked integer NOT NULL DEFAULT 0;
ALTER TABLE dashboard_streams ADD COLUMN frames_not_checked integer NOT NULL DEFAULT 0;
ALTER TABLE dashboard_streams ADD COLUMN detect_step integer;
UPDATE dashboard_streams s SET
  frames_not_checked = (SELECT count(*) FROM received_callbacks r WHERE r.request_id = s.request_id AND r.kind = 'frame' AND r.body->'frameDetail'->'auxInfo'->>'detectType' = '2'),
  frames_checked = (SELECT count(*) FROM received_callbacks r WHERE r.request_id = s.request_id AND r.kind = 'frame' AND r.body->'frameDetail'->>'riskLevel' IS NOT NULL
    AND (r.body->'frameDetail'->'auxInfo'->>'detectType') IS DISTINCT FROM '2');
CREATE INDEX received_callbacks_recent_idx ON received_callbacks (request_id, received_at);
`,
  },
  {
    id: "0200_incidents",
    sql: `
CREATE TABLE incidents (
  id text PRIMARY KEY,
  source_kind text NOT NULL,
  request_id text NOT NULL,
  source_ref text NOT NULL,
  title text,
  url text,
  media text NOT NULL,
  label text NOT NULL,
  labels jsonb NOT NULL,
  risk_level text NOT NULL,
  time_base text NOT NULL,
  start_t double precision NOT NULL,
  end_t double precision NOT NULL,
  hits integer NOT NULL,
  peak jsonb NOT NULL,
  peak_score double precision NOT NULL,
  status text NOT NULL,
  assignee text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX incidents_source_idx ON incidents (request_id, media, label);
CREATE INDEX incidents_status_idx ON incidents (status, created_at);
CREATE TABLE incident_hits (
  id bigserial PRIMARY KEY,
  incident_id text NOT NULL,
  request_id text NOT NULL,
  media text NOT NULL,
  label text NOT NULL,
  item_id text NOT NULL,
  t double precision NOT NULL,
  hit jsonb NOT NULL,
  body jsonb NOT NULL,
  callback_id bigint
);
CREATE INDEX incident_hits_incident_idx ON incident_hits (incident_id);
CREATE UNIQUE INDEX incident_hits_item_uniq ON incident_hits (request_id, media, label, item_id);
CREATE TABLE incident_decisions (
  id bigserial PRIMARY KEY,
  incident_id text NOT NULL,
  decision text NOT NULL,
  note text,
  username text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX incident_decisions_incident_idx ON incident_decisions (incident_id);
`,
  },
  {
    // the wall shows each stream's latest captured frame; existing streams take theirs from the callbacks received
    id: "0201_dashboard_streams_last_frame",
    sql: `
ALTER TABLE dashboard_streams ADD COLUMN last_frame_url text;
UPDATE dashboard_streams s SET last_frame_url = (SELECT r.body->'frameDetail'->>'imgUrl' FROM received_callbacks r
  WHERE r.request_id = s.request_id AND r.kind = 'frame' AND r.body->'frameDetail'->>'imgUrl' <> '' ORDER BY r.id DESC LIMIT 1);
`,
  },
  {
    // tasks submitted through the public API are mirrored onto the dashboard, marked with their accessKey's name
    id: "0210_dashboard_api_origin",
    sql: `
ALTER TABLE dashboard_files ADD COLUMN origin text NOT NULL DEFAULT 'dashboard';
ALTER TABLE dashboard_files ADD COLUMN key_name text;
ALTER TABLE dashboard_streams ADD COLUMN origin text NOT NULL DEFAULT 'dashboard';
ALTER TABLE dashboard_streams ADD COLUMN key_name text;
`,
  },
  {
    // live stream health changes (server/health): a gap in a stream's timeline explains itself
    id: "0220_stream_health_events",
    sql: `
CREATE TABLE stream_health_events (
  id bigserial PRIMARY KEY,
  request_id text NOT NULL,
  at timestamptz NOT NULL,
  kind text NOT NULL,
  message text NOT NULL,
  attempt integer,
  retry_of integer,
  next_attempt_at timestamptz,
  error_code integer,
  snapshot jsonb NOT NULL
);
CREATE INDEX stream_health_events_task_idx ON stream_health_events (request_id, id);
`,
  },
  {
    // scaled mode (server/scale): which worker holds a live stream (a lease it renews), a Close asked on another
    // node, and the workers' declared capacity (heartbeat)
    id: "0230_stream_leases",
    sql: `
ALTER TABLE tasks ADD COLUMN lease_owner text;
ALTER TABLE tasks ADD COLUMN lease_until timestamptz;
ALTER TABLE tasks ADD COLUMN close_requested_at timestamptz;
CREATE TABLE stream_workers (
  name text PRIMARY KEY,
  capacity integer NOT NULL,
  held integer NOT NULL,
  behind integer NOT NULL,
  heartbeat_at timestamptz NOT NULL
);
`,
  },
  {
    // scaled mode (server/scale/stream-handover.ts): a holder stopping gracefully offers its streams; a worker with
    // room stands by with a bridge pull (to_owner), says when it captures (ready_at), and is then given the lease
    id: "0240_stream_handovers",
    sql: `
CREATE TABLE stream_handovers (
  request_id text PRIMARY KEY,
  from_owner text NOT NULL,
  to_owner text,
  ready_at timestamptz,
  created_at timestamptz NOT NULL
);
`,
  },
  {
    // a decision on one frame or segment says which in human terms ("frame at 00:06.0"), and an incident decided
    // through one of its hits (server/incidents/item-review.ts) names that hit
    id: "0250_review_item_labels",
    sql: `
ALTER TABLE review_decisions ADD COLUMN item_label text;
ALTER TABLE incident_decisions ADD COLUMN item_label text;
`,
  },
  {
    // a stream source's credentials (the WHEP bearer), kept apart from the echoed request (server/task/source-secrets.ts)
    id: "0260_task_secrets",
    sql: `
ALTER TABLE tasks ADD COLUMN secrets jsonb;
`,
  },
  ...INCIDENT_MIGRATIONS,
  ...QUEUE_MIGRATIONS,
  ...SETTINGS_MIGRATIONS,
  // rules (server/rules/migrations.ts)
  ...RULE_MIGRATIONS,
  ...OIDC_MIGRATIONS,
];
