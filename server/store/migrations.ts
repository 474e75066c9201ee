import { INCIDENT_MIGRATIONS } from "../incidents/migrations";
import { QUEUE_MIGRATIONS } from "../queues/migrations";
import { RULE_MIGRATIONS } from "../rules/migrations";
import { SETTINGS_MIGRATIONS } from "../settings/migrations";
import { OIDC_MIGRATIONS } from "../auth/oidc/migrations";
import { CORE_MIGRATIONS } from "./migrations-core";
import { LIVE_MIGRATIONS } from "./migrations-live";

/** Ordered SQL migrations; applied once each, recorded in schema_migrations. Never edit a shipped one. */
export const MIGRATIONS: ReadonlyArray<{ id: string; sql: string }> = [
  ...CORE_MIGRATIONS,
  ...LIVE_MIGRATIONS,
  ...INCIDENT_MIGRATIONS,
  ...QUEUE_MIGRATIONS,
  ...SETTINGS_MIGRATIONS,
  // rules (server/rules/migrations.ts)
  ...RULE_MIGRATIONS,
  ...OIDC_MIGRATIONS,
];
