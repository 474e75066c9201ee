/** Rules (server/rules): definitions with every version kept, the hits each rule counted, and what each rule did or would have done. */
export const RULE_MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
  {
    id: "0400_rules",
    sql: `
CREATE TABLE rules (
  id text PRIMARY KEY,
  name text NOT NULL,
  mode text NOT NULL,
  version integer NOT NULL,
  position integer NOT NULL,
  definition jsonb NOT NULL,
  created_by text NOT NULL,
  updated_by text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE TABLE rule_versions (
  rule_id text NOT NULL,
  version integer NOT NULL,
  mode text NOT NULL,
  definition jsonb NOT NULL,
  changed_by text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (rule_id, version)
);
CREATE TABLE rule_matches (
  rule_id text NOT NULL,
  request_id text NOT NULL,
  item_id text NOT NULL,
  t double precision NOT NULL,
  hit jsonb NOT NULL,
  PRIMARY KEY (rule_id, request_id, item_id)
);
CREATE INDEX rule_matches_window_idx ON rule_matches (rule_id, request_id, t);
CREATE TABLE rule_activity (
  id text PRIMARY KEY,
  at timestamptz NOT NULL,
  rule_id text NOT NULL,
  rule_version integer NOT NULL,
  request_id text NOT NULL,
  source_kind text NOT NULL,
  title text,
  mode text NOT NULL,
  action text NOT NULL,
  window_key text NOT NULL,
  acted boolean NOT NULL,
  outcome text NOT NULL,
  hits jsonb NOT NULL
);
CREATE UNIQUE INDEX rule_activity_once ON rule_activity (rule_id, request_id, window_key, mode, action);
CREATE INDEX rule_activity_rule_idx ON rule_activity (rule_id, at);
`,
  },
];
