import { eq } from "drizzle-orm";
import type { RuleAction, RuleHit } from "../../lib/rules";
import { signWebhook } from "../callback/signature";
import { checkUrl } from "../ingest/url-guard";
import type { NetworkList } from "../net/networks";
import { pinnedRequest } from "../net/pinned";
import type { Db } from "../store/db";
import { dashboardStreams } from "../store/schema";
import type { SourceInfo } from "./source";

/** What actions reach: the dashboard's stream close, the incidents module, the hub, and outbound HTTP policy. */
export interface ActionDeps {
  db: Db;
  closeStream: (requestId: string) => Promise<{ ok: true } | { ok: false; error: string }>;
  decide: (incidentId: string, note: string, by: string) => Promise<boolean>;
  assign: (incidentId: string, assignee: string, by: string) => Promise<{ ok: boolean; error?: string }>;
  route?: (incidentId: string, queue: string, by: string) => Promise<{ ok: boolean; error?: string }>;
  alert: (a: { ruleId: string; ruleName: string; requestId: string; title: string | null; message: string; hits: RuleHit[] }) => void;
  allowPrivateNetworks: boolean;
  /** ALLOW_NETWORKS: private networks a webhook may reach */
  allowNetworks?: NetworkList;
  log: (m: string) => void;
}

export interface Firing {
  activityId: string;
  rule: { id: string; name: string; version: number };
  source: SourceInfo;
  hits: RuleHit[];
  incidentIds: string[];
}

/** Words for what an action does: "close the stream", …; the shadow record says "would close the stream". */
export function describeAction(a: RuleAction): string {
  switch (a.action) {
    case "close": return "close the stream";
    case "alert": return "raise a priority alert";
    case "queue": return `route to queue "${a.queue}"`;
    case "assign": return `assign to ${a.assignee}`;
    case "confirm": return "confirm the incident as a violation";
    case "webhook": return `call ${new URL(a.url).origin}`;
  }
}

const by = (f: Firing) => `rule:${f.rule.name} v${f.rule.version}`;

/** Runs one action of a live rule; the answer is the outcome recorded beside it (never throws). */
export async function runAction(d: ActionDeps, a: RuleAction, f: Firing): Promise<{ acted: boolean; outcome: string }> {
  try {
    switch (a.action) {
      case "close": {
        if (f.source.kind !== "stream") return { acted: false, outcome: "not a stream: nothing to close" };
        // a rule acts for the dashboard's principal: a stream another accessKey started through the API is not its to close
        if (f.source.origin === "api") return { acted: false, outcome: `refused: started through the public API by "${f.source.keyName ?? "another key"}"` };
        if (!f.source.running) return { acted: false, outcome: "the stream had already ended" };
        const reason = `closed by rule "${f.rule.name}" (v${f.rule.version})${a.reason ? `: ${a.reason}` : ""}`;
        // the end reason is written first: the stream-end that follows keeps it (server/dashboard/callback-batch.ts)
        await d.db.update(dashboardStreams).set({ endReason: reason.slice(0, 300) }).where(eq(dashboardStreams.requestId, f.source.requestId));
        const closed = await d.closeStream(f.source.requestId);
        return closed.ok ? { acted: true, outcome: reason } : { acted: false, outcome: `close failed: ${closed.error}` };
      }
      case "alert":
        d.alert({ ruleId: f.rule.id, ruleName: f.rule.name, requestId: f.source.requestId, title: f.source.title, message: a.message ?? `rule "${f.rule.name}" matched`, hits: f.hits });
        return { acted: true, outcome: "priority alert raised" };
      case "confirm": {
        if (f.incidentIds.length === 0) return { acted: false, outcome: "no incident to confirm" };
        let n = 0;
        for (const id of f.incidentIds) if (await d.decide(id, a.note ?? `confirmed by rule "${f.rule.name}" (v${f.rule.version})`, by(f))) n++;
        return { acted: n > 0, outcome: `${n} incident(s) confirmed` };
      }
      case "assign": {
        const out = await Promise.all(f.incidentIds.map((id) => d.assign(id, a.assignee, by(f))));
        const bad = out.find((o) => !o.ok);
        return bad ? { acted: false, outcome: `assign failed: ${bad.error}` } : { acted: out.length > 0, outcome: `${out.length} incident(s) assigned to ${a.assignee}` };
      }
      case "queue": {
        if (!d.route) return { acted: false, outcome: "queues are not available on this server" };
        const out = await Promise.all(f.incidentIds.map((id) => d.route!(id, a.queue, by(f))));
        const bad = out.find((o) => !o.ok);
        return bad ? { acted: false, outcome: `routing failed: ${bad.error}` } : { acted: out.length > 0, outcome: `${out.length} incident(s) routed to ${a.queue}` };
      }
      case "webhook":
        return await deliverWebhook(d, a, f);
    }
  } catch (err) {
    d.log(`rules: ${f.rule.name}: ${a.action} failed: ${(err as Error).message}`);
    return { acted: false, outcome: `failed: ${(err as Error).message}` };
  }
}

const RETRY_DELAYS_MS = [0, 1000, 3000, 10_000, 30_000];

/** Standard Webhooks delivery (webhook-id is the activity's id on every retry), retried until HTTP 200; egress policy as callbacks. */
async function deliverWebhook(d: ActionDeps, a: Extract<RuleAction, { action: "webhook" }>, f: Firing): Promise<{ acted: boolean; outcome: string }> {
  const body = JSON.stringify({ type: "rule.matched", rule: f.rule, source: { kind: f.source.kind, requestId: f.source.requestId, title: f.source.title }, hits: f.hits.slice(0, 20), incidentIds: f.incidentIds, at: new Date().toISOString() });
  let last = "";
  for (const wait of RETRY_DELAYS_MS) {
    if (wait) await new Promise((r) => setTimeout(r, wait));
    try {
      const target = await checkUrl(a.url, { protocols: ["http", "https"], allowPrivate: d.allowPrivateNetworks, allowNetworks: d.allowNetworks });
      const ts = Math.floor(Date.now() / 1000);
      const headers: Record<string, string | number> = { "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "moderation-platform/1 rule", "webhook-id": `msg_${f.activityId}`, "webhook-timestamp": String(ts) };
      if (a.secret) headers["webhook-signature"] = signWebhook(a.secret, `msg_${f.activityId}`, ts, body);
      const res = await pinnedRequest(target, { method: "POST", headers, body, signal: AbortSignal.timeout(5000) });
      res.resume();
      if (res.statusCode === 200) return { acted: true, outcome: `webhook delivered to ${target.url.origin}` };
      last = `HTTP ${res.statusCode}`;
    } catch (err) {
      last = (err as Error).message;
      if ((err as Error).name === "UrlRefusedError") break;
    }
  }
  return { acted: false, outcome: `webhook not delivered: ${last}` };
}
