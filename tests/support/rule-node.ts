// One "dashboard node" of the two-node rules test (tests/integration/rules-nodes.test.ts): a real process with its
// own PostgreSQL connection and rule engine, fed the same callback bodies as its twin at the same moment. It prints
// one line per action it really ran ("ACT close <requestId>") and "DONE" at the end.
import { readFileSync } from "node:fs";
import { openStore } from "../../server/store/db";
import { createRuleEngine } from "../../server/rules/engine";

const [inputFile, startAt] = process.argv.slice(2);
const inputs = JSON.parse(readFileSync(inputFile, "utf8")) as Array<{ requestId: string; body: Record<string, unknown> }>;
const store = await openStore({ dataDir: "/nonexistent", databaseUrl: process.env.DATABASE_URL! });
const engine = createRuleEngine({
  db: store.db,
  closeStream: async (id) => {
    console.log(`ACT close ${id}`);
    return { ok: true };
  },
  decide: async () => true,
  assign: async () => ({ ok: true }),
  alert: (a) => console.log(`ACT alert ${a.requestId}`),
  allowPrivateNetworks: true,
  audit: async () => undefined,
  log: (m) => console.error(m),
});
// both nodes start evaluating at the same instant
await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
await Promise.all(inputs.map((i) => engine.evaluate({ kind: "stream", requestId: i.requestId, receivedAt: new Date(), body: i.body })));
console.log("DONE");
await store.close();
