/**
 * Migrations of the first release (ids 0001–0199): tasks and callback deliveries, the dashboard's files and streams,
 * received callbacks, and accounts (users, sessions, audit log, review decisions). Spread into
 * server/store/migrations.ts. Never edit a shipped one.
 */
export const CORE_MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
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
];
