// Process-wide singletons, set once by the custom server, read by Next route handlers
// (Next bundles route handlers separately, so module-level singletons would be different objects).
import type { Rules } from "./rules";
import type { Engine } from "./engine";
import type { Dashboard } from "./dashboard";
import type { Hub } from "./hub";
import type { createDemo } from "./dashboard/demo";
import type { AuthApi } from "./auth/api";
import type { Status } from "./dashboard/status";
import type { Incidents } from "./incidents";
import type { ReviewMetricsApi } from "./metrics/review";
import type { Queues } from "./queues";
import type { SettingsApi } from "./settings/api";
import type { Oidc } from "./auth/oidc/flow";

export interface Registry {
  engine: Engine | null; // null when the dashboard drives a remote service
  dashboard: Dashboard;
  hub: Hub;
  demo: ReturnType<typeof createDemo>;
  auth: AuthApi;
  /** Status page: disk use, retention sweeps, queue depths */
  status: Status;
  /** Incidents and the review queue */
  incidents: Incidents;
  /** Rules that act on their own (server/rules) */
  rules: Rules;
  /** Review queues and claims (server/queues) */
  queues: Queues;
  /** Team review metrics (GET /api/metrics/review) */
  reviewMetrics: ReviewMetricsApi;
  /** Per-user alert and wellness settings, the team default, the exposure count */
  settings: SettingsApi;
  /** Sign-in through the identity provider (OIDC_ISSUER); null when not configured */
  oidc: Oidc | null;
}

const KEY = Symbol.for("moderation-platform.registry");
type Holder = { [KEY]?: Registry };

export function setRegistry(r: Registry): void {
  (globalThis as Holder)[KEY] = r;
}

export function getRegistry(): Registry {
  const r = (globalThis as Holder)[KEY];
  if (!r) throw new Error("registry not initialised: start the app with the custom server (npm run dev / npm start)");
  return r;
}
