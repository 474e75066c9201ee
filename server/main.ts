import { loadConfig } from "./config";
import { startApp } from "./app";

/** Entry point of `npm run dev` / `npm start`: dashboard + embedded moderation service on one port. */
const config = loadConfig();
const app = await startApp(config, { withNext: !config.serviceOnly });
const shown = config.host === "0.0.0.0" ? `http://localhost:${app.port}` : `http://${config.host}:${app.port}`;
console.log(`> ready on ${shown} (${config.dev ? "development" : "production"}, data in ${config.dataDir})`);
if (app.engine) {
  console.log(`> moderation service: POST ${shown}/video/v4 … (OpenAPI: ${shown}/openapi.json)`);
  if (app.engine.generatedKey) console.log(`> accessKey (generated, kept in ${config.dataDir}/access-key): ${app.engine.keys[0]}`);
} else {
  console.log(`> dashboard drives the remote service at ${config.serviceBaseUrl}`);
}

let closing = false;
for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.on(sig, () => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`> ${sig}: shutting down`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    void app.close().then(() => process.exit(0));
  });
}
