/**
 * Migrations 0200–0269: incidents, the live wall (last frame, API origin), stream health events, scaled mode
 * (stream leases, handovers) and review item labels. Spread into server/store/migrations.ts. Never edit a shipped one.
 */
export const LIVE_MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
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
];
