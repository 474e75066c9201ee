// Per-user settings (alerts, wellness), the team default and the daily exposure count (issue 26.2/26.4).
// Ids 0310-0319 belong to this module.
export const SETTINGS_MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
  {
    id: "0310_user_settings",
    sql: `
CREATE TABLE user_settings (
  user_id text PRIMARY KEY,
  settings jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE team_settings (
  id text PRIMARY KEY,
  settings jsonb NOT NULL,
  updated_by text NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE user_exposure (
  user_id text NOT NULL,
  day text NOT NULL,
  incident_id text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (user_id, day, incident_id)
);
`,
  },
];
