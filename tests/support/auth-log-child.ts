// A child process for tests/integration/secrets-in-logs.test.ts: the dashboard's sign-in path (bootstrap with the
// initial password, a right and a wrong sign-in) on DATA_DIR's store, logging as the server does (console), so the
// test scans this process's real stdout and stderr.
import { createAuth } from "../../server/auth";
import { openStore } from "../../server/store/db";

const dataDir = process.env.DATA_DIR!;
const store = await openStore({ dataDir, databaseUrl: null });
const auth = await createAuth({ store, dataDir, sessionSecret: null, sessionTtlHours: 1, initialPassword: process.env.SUPERVISOR_INITIAL_PASSWORD ?? null, log: (m) => console.log(m) });
await auth.bootstrap();
await auth.signIn("admin", process.env.SUPERVISOR_INITIAL_PASSWORD!, "127.0.0.1", null);
await auth.signIn("admin", process.env.WRONG_PASSWORD!, "127.0.0.1", null).catch((err: Error) => console.error(`sign-in refused: ${err.message}`));
await store.close();
console.log("auth-log-child done");
