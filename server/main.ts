import { loadConfig } from "./config";
import { startApp } from "./app";
import { ensureProductPackages } from "./setup/debian-packages";

/** Entry point of `npm run dev` / `npm start`: dashboard + embedded moderation service on one port. */
const config = loadConfig();
// the first command of the README gives the whole product: Debian packages the audio engines need (README "Set-up")
if (!config.serviceBaseUrl) ensureProductPackages({ auto: process.env.AUTO_INSTALL_PACKAGES !== "0", log: (m) => console.log(m) });
const app = await startApp(config, { withNext: !config.serviceOnly });
const shown = config.host === "0.0.0.0" ? `http://localhost:${app.port}` : `http://${config.host}:${app.port}`;
console.log(`> ready on ${shown} (${config.dev ? "development" : "production"}, data in ${config.dataDir})`);
if (app.engine) {
  console.log(`> moderation service: POST ${shown}/video/v4 … (OpenAPI: ${shown}/openapi.json)`);
  // printed at every start (README "Set-up"); configured keys (MODERATION_ACCESS_KEYS) are the operator's and never logged
  if (app.engine.generatedKey) console.log(`> accessKey (generated, kept in ${config.dataDir}/access-key): ${app.engine.keys[0]}`);
  else console.log(`> accessKeys: ${app.engine.keys.length} configured by MODERATION_ACCESS_KEYS (not printed)`);
  // scaled mode is switched on by the two URLs: say so, and say where the work runs (docs/deployment.md)
  if (config.scale.on)
    console.log(
      config.scale.runsStreams
        ? `> scaled mode (REDIS_URL + DATABASE_URL): this node also takes live streams and files as worker ${config.scale.workerName}`
        : "> scaled mode (REDIS_URL + DATABASE_URL): this node takes no live stream or file itself; start `npm run worker` (or WORKER=1) or they are refused 'no worker'",
    );
} else {
  console.log(`> dashboard drives the remote service at ${config.serviceBaseUrl}`);
}

let closing = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`> ${sig}: shutting down`);
    // a process that takes streams (WORKER=1, scaled mode) hands them over first: up to ~8 s for the successor, then drains
    const force = setTimeout(() => process.exit(1), config.scale.on ? 30_000 : 10_000);
    force.unref();
    void app.close().then(() => process.exit(0));
  });
}
