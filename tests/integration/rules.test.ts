// Rules (#27) on a real live stream: the dashboard starts it (its own principal), the real callback bodies feed the
// incidents and the rules as the receivers do; a shadow rule records "would close" and the stream keeps running;
// switched to live (a new version) the same rule closes it within one window, once, naming the rule in the end
// reason and the audit log; its webhook is delivered signed; a backtest over the stored hits finds the stream.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { startTestService } from "../support/app";
import { startRtmpSource } from "../support/live-sources";
import { startReceiver, waitFor } from "../support/net";
import { getRegistry } from "../../server/registry";
import { feedIncidents } from "../../server/incidents/feed";
import { verifyWebhook } from "../../server/callback/signature";
import { dashboardStreams } from "../../server/store/schema";
import { auditLog } from "../../server/auth/schema";
import type { BacktestJob } from "../../lib/rules";
import { QueueInput } from "../../lib/queues";

const SECRET = "rule-webhook-secret-0123456789";

describe("rules on a real stream", async () => {
  const svc = await startTestService({ env: { INCIDENT_GAP_SEC: "5" } });
  const src = await startRtmpSource({ name: "rules-qr", audio: "none", qr: { text: "https://scam.example/rules", fromSec: 0, toSec: 6 } });
  const hook = await startReceiver();
  const db = svc.engine!.ctx.store.db;
  // the dashboard's receivers are Next routes (not running here): the real bodies the service queues are fed as they would
  const queued = new Map<string, number>();
  svc.engine!.ctx.dispatcher.on("queued", (q) => {
    queued.set(q.requestId, (queued.get(q.requestId) ?? 0) + 1);
    void feedIncidents(db, { kind: "stream", requestId: q.requestId, receivedAt: new Date(), body: JSON.parse(q.body) });
  });
  after(async () => {
    await hook.close();
    await src.close();
    await svc.close();
  });

  test("shadow records, live closes once with its reason, webhook signed, backtest finds it", { timeout: 240_000 }, async () => {
    const { rules, dashboard, queues } = getRegistry();
    await queues.create(QueueInput.parse({ name: "Scam QR" }), "sup");
    const rule = await rules.create({ name: "scam QR", mode: "shadow", stopAfterMatch: false, when: { labels: ["ad"], count: 2, withinSec: 30 }, then: [{ action: "close", reason: "scam QR on screen" }, { action: "queue", queue: "scam qr" }, { action: "webhook", url: hook.url, secret: SECRET }] }, "sup");
    assert.equal(rule.version, 1);
    assert.equal((rule.then[2] as { secret?: string }).secret, "********", "the secret is never sent back");
    const started = await dashboard.streams.start({ kind: "video", url: src.rtmpUrl, title: "rules stream", detectFrequency: 1, imgTypes: ["QRCODE"], audioTypes: ["NONE"], returnAllImg: false, returnAllText: false, returnFinishInfo: true });
    assert.ok(started.ok, JSON.stringify(started));
    const requestId = (started as { requestId: string }).requestId;
    const row = async () => (await db.select().from(dashboardStreams).where(eq(dashboardStreams.requestId, requestId)))[0];

    // shadow: "would close", nothing acted, no webhook; the stream keeps running and keeps being checked
    const shadow = await waitFor(async () => (await rules.activity(rule.id, new Date(0))).find((e) => e.mode === "shadow" && e.action === "close"), 90_000, 250);
    assert.equal(shadow.acted, false);
    assert.equal(shadow.outcome, "would close the stream");
    assert.ok(shadow.hits.length >= 2 && shadow.hits.every((h) => h.label === "ad"));
    const callbacksThen = queued.get(requestId) ?? 0;
    await waitFor(async () => (queued.get(requestId) ?? 0) > callbacksThen + 2 || null, 60_000, 250);
    assert.equal((await row()).status, "running");
    assert.equal(svc.engine!.streams.active, 1);
    assert.equal(hook.received.length, 0, "a shadow rule calls no webhook");

    // live: one audited change, a new version; the next window closes the stream with the rule's reason
    const live = await rules.patch(rule.id, { mode: "live" }, "sup");
    assert.equal(live?.version, 2);
    const acted = await waitFor(async () => (await rules.activity(rule.id, new Date(0))).find((e) => e.mode === "live" && e.action === "close" && e.outcome !== "pending"), 90_000, 250);
    assert.equal(acted.acted, true, acted.outcome);
    assert.equal(acted.ruleVersion, 2);
    await waitFor(async () => (await row()).status === "ended" || null, 30_000, 250);
    assert.match((await row()).endReason ?? "", /closed by rule "scam QR" \(v2\): scam QR on screen/);
    const audit = await waitFor(async () => (await db.select().from(auditLog).where(eq(auditLog.action, "rule.close")))[0], 10_000, 100);
    assert.equal(audit.username, "rule:scam QR");
    assert.equal(audit.target, requestId);
    assert.equal((audit.detail as { ruleVersion: number }).ruleVersion, 2);

    // the queue action: the stream's incident is in "Scam QR" and stays there through later routing
    const routed = await waitFor(async () => (await rules.activity(rule.id, new Date(0))).find((e) => e.mode === "live" && e.action === "queue" && e.outcome !== "pending"), 30_000, 100);
    assert.equal(routed.acted, true, routed.outcome);
    const [inc] = await getRegistry().incidents.list({ requestId }, "sup");
    assert.equal((await queues.info(inc.id)).queue?.name, "Scam QR");
    await queues.route([inc.id]);
    assert.equal((await queues.info(inc.id)).queue?.name, "Scam QR", "pinned through re-routing");

    // the webhook: delivered once, signed (Standard Webhooks), naming the rule and version
    await hook.until((r) => r.length >= 1, 30_000);
    const [w] = hook.received;
    const b = w.body as { rule: { name: string; version: number }; source: { requestId: string } };
    assert.ok(verifyWebhook(SECRET, { get: (n) => (w.headers[n] as string | undefined) ?? null }, w.raw).ok);
    assert.equal(b.rule.name, "scam QR");
    assert.equal(b.rule.version, 2);
    assert.equal(b.source.requestId, requestId);

    // acted once: more callbacks of the same window (late frames, a retried one) add no second close
    await getRegistry().incidents.idle();
    const closes = (await rules.activity(rule.id, new Date(0))).filter((e) => e.mode === "live" && e.action === "close");
    assert.equal(closes.length, 1);

    // backtest of the same rule over the stored hits: the stream is found, with the reviewers' decisions beside it
    const job = rules.backtests.start("sup", (await rules.definition(rule.id))!, new Date(Date.now() - 3600_000));
    assert.ok(!("error" in job));
    const done = await waitFor(async () => ((job as BacktestJob).state === "running" ? null : (job as BacktestJob)), 30_000, 50);
    assert.equal(done.state, "done");
    const found = done.result!.sources.find((s) => s.requestId === requestId);
    assert.ok(found, JSON.stringify(done.result));
    assert.equal(done.result!.summary.wouldClose, 1);
    assert.ok(found.decisions.open >= 1);
  });
});
