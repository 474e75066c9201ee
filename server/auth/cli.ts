// `npm run users -- <command>`: account recovery from the shell (stop the server first when the store is PGlite).
//   list                      accounts and roles
//   create <username> <role>  new account with a one-time password
//   reset <username>          new one-time password (and re-enables the account)
import { isRole } from "../../lib/roles";
import { loadConfig } from "../config";
import { openStore } from "../store/db";
import { createAuth } from "./index";

const [cmd, name, role] = process.argv.slice(2);
const config = loadConfig();
const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
const auth = await createAuth({ store, dataDir: config.dataDir, sessionSecret: config.sessionSecret, sessionTtlHours: config.sessionTtlHours, initialPassword: config.supervisorInitialPassword, log: (m) => console.log(m) });
let status = 0;
try {
  if (cmd === "list") {
    for (const u of await auth.listUsers()) console.log(`${u.username}\t${u.role}${u.disabled ? "\tdisabled" : ""}${u.mustChangePassword ? "\tone-time password pending" : ""}`);
  } else if (cmd === "create" && name && isRole(role)) {
    const r = await auth.createUser(name, role);
    console.log(`created ${r.user.username} (${r.user.role}); one-time password: ${r.password}`);
  } else if (cmd === "reset" && name) {
    const u = (await auth.listUsers()).find((x) => x.username === name.toLowerCase());
    if (!u) throw new Error(`no account ${name}`);
    const r = await auth.updateUser("cli", u.id, { resetPassword: true, disabled: false });
    await auth.audit({ username: "cli", action: "user.change", target: u.username, outcome: "ok", ip: "local shell", detail: { message: "password reset from the shell" } });
    console.log(`${u.username}: one-time password: ${r.password}`);
  } else {
    console.error("usage: npm run users -- list | create <username> <moderator|reviewer|supervisor> | reset <username>");
    status = 2;
  }
} catch (err) {
  console.error((err as Error).message);
  status = 1;
}
await store.close();
process.exit(status);
