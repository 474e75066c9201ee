// A stream source's credentials (today: a WHEP endpoint's bearer in `data.headers.Authorization`) never travel with
// the request as stored: the stored request (echoed in every requestParams, mirrored on the dashboard, read back
// after a restart or by a scaled-mode worker) carries `Bearer ***`; the value lives in the task row's `secrets`,
// read only to open the pull.
import { REDACTED_BEARER } from "../../lib/contract/rtc";
import type { TaskRow, TaskSecrets } from "../store/schema";

type Data = Record<string, unknown>;

/** The request to store (headers redacted) and the secrets to keep beside it (null: none). */
export function splitSourceSecrets<T extends { data: Data }>(req: T): { stored: T; secrets: TaskSecrets | null } {
  const headers = req.data.headers as Record<string, string> | undefined;
  if (!headers || Object.keys(headers).length === 0) return { stored: req, secrets: null };
  const redacted = Object.fromEntries(Object.keys(headers).map((k) => [k, k.toLowerCase() === "authorization" ? REDACTED_BEARER : "***"]));
  return { stored: { ...req, data: { ...req.data, headers: redacted } }, secrets: { sourceHeaders: { ...headers } } };
}

/** The `data` a pull opens: the stored request's, with the real headers put back (dropped when none are kept). */
export function sourceDataOf(row: Pick<TaskRow, "request" | "secrets">): Data {
  const { headers: _redacted, ...data } = ((row.request as { data?: Data }).data ?? {}) as Data;
  const real = row.secrets?.sourceHeaders;
  return real && Object.keys(real).length > 0 ? { ...data, headers: real } : data;
}
