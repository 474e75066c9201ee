// Review queues (issue #26.3) on the real store: routing rules over real incidents (fed as contract callbacks of
// sources with real task facts), re-routing when queues change, and claims: concurrent `next` calls never hand out
// one incident twice, a reviewer's current claim comes back first, release, decisions end a claim (another
// reviewer's decision is refused), an expired claim returns to the queue, and counts follow.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { startTestService } from "../support/app";
import { waitFor } from "../support/net";
import { feedHits, seedStreamSource, type SeedHit } from "../support/seed-incidents";
import { getRegistry } from "../../server/registry";
import { createQueues, type Caller } from "../../server/queues";
import type { QueueCountsEvent } from "../../lib/queues";

const reviewer = (username: string): Caller => ({ username, role: "reviewer" });
const boss: Caller = { username: "lead", role: "supervisor" };

describe("review queues on the real store", async () => {
  const svc = await startTestService({ env: { CLAIM_LEASE_SEC: "2" } });
  after(() => svc.close());
  const db = svc.engine!.ctx.store.db;
  const { incidents, queues, hub } = getRegistry();
  const pushed: QueueCountsEvent[] = [];
  const emit = hub.queues.bind(hub);
  hub.queues = (e) => (pushed.push(e), emit(e));

  /** Ids of the incidents of one source, oldest first. */
  const incidentsOf = async (requestId: string) => (await incidents.list({ requestId }, "x")).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.start - b.start).map((i) => i.id);
  const queueOf = async (id: string) => (await queues.info(id)).queue?.id;
  const made = async (r: Awaited<ReturnType<typeof queues.create>>) => {
    assert.ok(r.ok, JSON.stringify(r));
    return r.queue.id;
  };

  test("an incident goes to the first queue whose rule matches; the default queue takes the rest; queue changes route open incidents again", async () => {
    const adsReject = await made(await queues.create({ name: "Ads REJECT", rule: { labels: ["ad"], levels: ["REJECT"] }, order: "worst", roles: [], users: [] }, "lead"));
    const vip = await made(await queues.create({ name: "VIP app", rule: { appIds: ["vip-app"] }, order: "oldest", roles: [], users: [] }, "lead"));
    const casino = await made(await queues.create({ name: "Casino streams", rule: { kinds: ["stream"], titlePattern: "*casino*" }, order: "oldest", roles: [], users: [] }, "lead"));
    const tokens = await made(await queues.create({ name: "Watched users", rule: { tokenIdPattern: "watch-??-*" }, order: "oldest", roles: [], users: [] }, "lead"));
    const scam = await made(await queues.create({ name: "Scam words", rule: { lists: ["Scam Words"] }, order: "oldest", roles: [], users: [] }, "lead"));
    assert.deepEqual(await queues.create({ name: "ads reject", rule: {}, order: "oldest", roles: [], users: [] }, "lead"), { ok: false, status: 409, error: 'a queue named "ads reject" exists already' });

    const plain = await seedStreamSource(db, { title: "Morning show" });
    await feedHits(incidents.feed, plain, [{ level: "REJECT", label1: "ad", label2: "qrcode" }, { level: "REVIEW", label1: "ad" }, { level: "REVIEW", label1: "porn", label2: "sexy" }, { level: "REVIEW", label1: "politics", lists: ["scam words"] }]);
    const [adReject, adReview, porn, listed] = await incidentsOf(plain);
    assert.equal(await queueOf(adReject), adsReject, "label and level match");
    assert.equal(await queueOf(adReview), "default", "REVIEW is not in the rule's levels");
    assert.equal(await queueOf(porn), "default");
    assert.equal(await queueOf(listed), scam, "a keyword list of its evidence (names compared without case)");

    const vipSrc = await seedStreamSource(db, { appId: "vip-app", title: "Big Casino Night" });
    await feedHits(incidents.feed, vipSrc, [{ level: "REJECT", label1: "ad" }, { level: "REVIEW", label1: "porn" }]);
    const [vipAd, vipPorn] = await incidentsOf(vipSrc);
    assert.equal(await queueOf(vipAd), adsReject, "the first matching queue wins (Ads REJECT comes before VIP app)");
    assert.equal(await queueOf(vipPorn), vip);
    const casinoSrc = await seedStreamSource(db, { title: "Big CASINO night" });
    const watched = await seedStreamSource(db, { tokenId: "watch-42-anna" });
    await feedHits(incidents.feed, casinoSrc, [{ level: "REVIEW", label1: "porn" }]);
    await feedHits(incidents.feed, watched, [{ level: "REVIEW", label1: "porn" }]);
    const [casinoInc] = await incidentsOf(casinoSrc);
    const [watchedInc] = await incidentsOf(watched);
    assert.equal(await queueOf(casinoInc), casino, "title glob, without case");
    assert.equal(await queueOf(watchedInc), tokens, "tokenId glob with ?");

    // a new hit makes an open incident worse: it is routed again (REVIEW ad → REJECT ad)
    const t0 = Date.now() - 30_000;
    const worse = await seedStreamSource(db);
    await feedHits(incidents.feed, worse, [{ level: "REVIEW", label1: "ad" }], new Date(t0));
    await feedHits(incidents.feed, worse, [{ level: "REJECT", label1: "ad" }], new Date(t0 + 2000));
    const [worseInc] = await incidentsOf(worse);
    assert.equal((await incidents.get(worseInc))!.hits, 2);
    assert.equal(await queueOf(worseInc), adsReject);

    // VIP app moved first: its incidents that Ads REJECT took move to it
    assert.ok((await queues.update(vip, { position: 0 })).ok);
    assert.equal(await queueOf(vipAd), vip);
    // a rule changed: REVIEW ads now go to Ads REJECT too
    assert.ok((await queues.update(adsReject, { rule: { labels: ["ad"] } })).ok);
    assert.equal(await queueOf(adReview), adsReject);
    // deleted: its incidents go where the remaining rules send them
    assert.ok((await queues.remove(casino)).ok);
    assert.equal(await queueOf(casinoInc), "default");
    assert.deepEqual(await queues.remove("default"), { ok: false, status: 409, error: "the default queue cannot be deleted: it catches every incident no other queue takes" });
    assert.equal((await queues.update("default", { rule: { labels: ["ad"] } })).ok, false);
    // decided incidents leave the counts; the list names each queue in routing order with its counts
    await incidents.decide(porn, { decision: "cleared" }, "lead");
    const list = await queues.list(boss);
    assert.deepEqual(list.map((q) => q.name), ["VIP app", "Ads REJECT", "Watched users", "Scam words", "Default"]);
    const counts = Object.fromEntries(list.map((q) => [q.name, q.counts.open]));
    assert.deepEqual(counts, { "VIP app": 2, "Ads REJECT": 3, "Watched users": 1, "Scam words": 1, Default: 1 });
    assert.ok(list.every((q) => q.counts.claimed === 0 && (q.counts.open === 0) === (q.counts.oldestOpenAt === null)));
    // the Review pages heard of it: counts and a definitions change
    await waitFor(async () => pushed.some((e) => e.definitions && e.counts[adsReject]?.open === 3) || null, 5_000, 50);
    for (const id of [adsReject, vip, tokens, scam]) assert.ok((await queues.remove(id)).ok);
  });

  test("claims: concurrent next calls hand out distinct incidents; the current claim first; release; decisions; expiry", async () => {
    // the claims that must not lapse during the test are taken with a 10-minute lease (the same module on the same
    // store); the service's own (CLAIM_LEASE_SEC=2) is used where a claim is meant to lapse
    const held10 = createQueues({ db, leaseSec: 600, detail: (id) => incidents.get(id), publish: () => undefined, log: () => undefined });
    after(() => held10.close());
    const q = await made(await queues.create({ name: "Claims", rule: { appIds: ["claims-app"] }, order: "worst", roles: [], users: [] }, "lead"));
    const src = await seedStreamSource(db, { appId: "claims-app" });
    const hits: SeedHit[] = Array.from({ length: 8 }, (_, k) => ({ level: k % 3 === 0 ? "REJECT" : "REVIEW", label1: "ad", probability: 0.5 + k / 20 }));
    await feedHits(incidents.feed, src, hits);
    const ids = await incidentsOf(src);
    assert.equal(ids.length, 8);

    // ten reviewers press Start at once: eight incidents, each to one reviewer, two get nothing
    const names = Array.from({ length: 10 }, (_, k) => `rev${k}`);
    const got = await Promise.all(names.map((n) => held10.next(q, reviewer(n))));
    const claimed = got.map((r) => (r.ok ? (r.incident?.id ?? null) : "refused"));
    assert.equal(claimed.filter((x) => x === null).length, 2, JSON.stringify(claimed));
    assert.equal(new Set(claimed.filter((x) => x !== null)).size, 8, "never the same incident twice");
    for (const [k, r] of got.entries()) if (r.ok && r.incident) assert.equal(r.incident.claimedBy, names[k]);
    // the queue's order is worst-first: the first claims took every REJECT before any REVIEW
    const firstClaims = got.flatMap((r) => (r.ok && r.incident ? [r.incident] : []));
    assert.equal(firstClaims.filter((i) => i.riskLevel === "REJECT").length, hits.filter((h) => h.level === "REJECT").length);
    const byUser = new Map(names.map((n, k) => [n, claimed[k]]));
    const holder = names.find((n) => byUser.get(n))!;
    const held = byUser.get(holder)!;
    // a reload: the same reviewer gets their current claim back, renewed
    const again = await held10.next(q, reviewer(holder));
    assert.ok(again.ok && again.incident?.id === held);
    assert.equal((await queues.info(held)).claimedBy, holder);
    assert.equal((await queues.counts())[q].claimed, 8);

    // another reviewer's decision on it is refused; the holder's ends the claim
    const refused = await incidents.decideMany({ ids: [held], decision: "confirmed" }, "someone-else");
    assert.deepEqual([refused.updated.length, refused.claimed.map((c) => [c.id, c.claimedBy])], [0, [[held, holder]]]);
    const decided = await incidents.decideMany({ ids: [held], decision: "confirmed" }, holder);
    assert.equal(decided.updated[0]?.status, "confirmed");
    assert.equal((await queues.info(held)).claimedBy, null);

    // skip: released, and the same page does not get it back at once; a waiting reviewer does
    const other = names.find((n) => n !== holder && byUser.get(n))!;
    const skipped = byUser.get(other)!;
    assert.deepEqual(await held10.release(skipped, reviewer(holder)), { ok: false, status: 409, error: `incident ${skipped} is claimed by ${other}: only they or a supervisor may release it` });
    const rel = await held10.release(skipped, reviewer(other));
    assert.ok(rel.ok && rel.released);
    // a renewal that arrives after the release takes nothing back
    assert.deepEqual(await held10.claim(skipped, reviewer(other), true), { ok: false, status: 409, error: `your claim on incident ${skipped} lapsed or was released: it is back in its queue` });
    const afterSkip = await held10.next(q, reviewer(other), [skipped]);
    assert.ok(afterSkip.ok && afterSkip.incident === null, "nothing else is free");
    const waiting = names.find((n) => !byUser.get(n))!;
    const taken = await held10.next(q, reviewer(waiting));
    assert.ok(taken.ok && taken.incident?.id === skipped);
    // a supervisor may release anyone's claim
    const byBoss = await held10.release(skipped, boss);
    assert.ok(byBoss.ok && byBoss.released && byBoss.claimedBy === waiting);

    // expiry: a claim nobody renews (CLAIM_LEASE_SEC=2) goes back to the queue: the sweep clears it, another reviewer gets it
    const short = await queues.next(q, reviewer("short-holder"));
    assert.ok(short.ok && short.incident?.id === skipped, "the one free incident");
    assert.equal((await queues.counts())[q].claimed, 7);
    await waitFor(async () => ((await queues.info(skipped)).claimedBy === null ? true : null), 15_000, 100);
    await waitFor(async () => ((await queues.counts())[q].claimed === 6 ? true : null), 5_000, 100);
    const late = await held10.next(q, reviewer("late-reviewer"));
    assert.ok(late.ok && late.incident?.id === skipped && late.incident.claimedBy === "late-reviewer");
    assert.deepEqual((await queues.counts())[q], { ...(await queues.counts())[q], open: 7, claimed: 7 });
    // done: every claim given back, the queue goes
    for (const id of ids) await held10.release(id, boss);
    assert.ok((await queues.remove(q)).ok);
  });

  test("who may work a queue: its roles and users; supervisors always", async () => {
    const q = await made(await queues.create({ name: "Specialists", rule: { appIds: ["special"] }, order: "oldest", roles: [], users: ["sam"] }, "lead"));
    const src = await seedStreamSource(db, { appId: "special" });
    await feedHits(incidents.feed, src, [{ level: "REJECT", label1: "terror" }]);
    assert.deepEqual(await queues.next(q, reviewer("ria")), { ok: false, status: 403, error: 'you may not work the queue "Specialists" (ask a supervisor to add you or your role)' });
    assert.deepEqual(await queues.next(q, { username: "mo", role: "moderator" }).then((r) => r.ok), false);
    const sam = await queues.next(q, reviewer("sam"));
    assert.ok(sam.ok && sam.incident);
    assert.equal((await queues.claim(sam.incident.id, reviewer("ria"))).ok, false);
    assert.equal((await queues.list(reviewer("ria"))).find((x) => x.id === q)?.mayWork, false);
    assert.equal((await queues.list(boss)).find((x) => x.id === q)?.mayWork, true);
    assert.ok((await queues.release(sam.incident.id, reviewer("sam"))).ok);
    assert.deepEqual(await queues.next("0123456789ab", boss), { ok: false, status: 404, error: "unknown queue" });
    assert.ok((await queues.remove(q)).ok);
  });
});
