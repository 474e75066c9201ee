// `npm test`: unit + integration (node:test) then end-to-end (Playwright in Debian chromium).
// On a fresh Debian machine it first installs the Debian packages the tests need (as root).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

// product: ffmpeg (ffprobe), pocketsphinx + model (speech to text), fpcalc (audio fingerprints);
// tests only: chromium (Playwright), fonts (rendered text), flite + espeak-ng (test speech), coturn (TURN)
const DEBIAN_PACKAGES = {
  ffmpeg: "/usr/bin/ffmpeg",
  pocketsphinx: "/usr/bin/pocketsphinx_continuous",
  "pocketsphinx-en-us": "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict",
  "libchromaprint-tools": "/usr/bin/fpcalc",
  chromium: "/usr/bin/chromium",
  "fonts-noto-cjk": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
  "fonts-dejavu-core": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  flite: "/usr/bin/flite",
  "espeak-ng": "/usr/bin/espeak-ng",
  // tests only: a real TURN/STUN server for the WebRTC NAT settings (tests/integration/webrtc-turn.test.ts)
  coturn: "/usr/bin/turnserver",
};

function ensureDebianPackages() {
  const missing = Object.entries(DEBIAN_PACKAGES).filter(([, file]) => !fs.existsSync(file)).map(([pkg]) => pkg);
  if (missing.length === 0) return;
  const root = process.getuid?.() === 0;
  if (!root || !fs.existsSync("/usr/bin/apt-get")) {
    console.error(`missing Debian packages: ${missing.join(" ")} — install them with: sudo apt-get install -y ${missing.join(" ")}`);
    process.exit(2);
  }
  console.log(`installing Debian packages: ${missing.join(" ")}`);
  execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "-qq", ...missing], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

function run(cmd, args, extraEnv = {}) {
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...extraEnv } });
  return r.status ?? 1;
}

ensureDebianPackages();
fs.mkdirSync(".test-results", { recursive: true });
const only = process.argv[2]; // optional: unit | integration | fuzz | e2e
let failed = 0;
const counts = { passed: 0, failed: 0, skipped: 0 };
/** node:test's failing-tests section, printed again last: CI keeps only the tail of the output */
let nodeFailures = "";

// the production build: the e2e specs run it, and so do the dashboard nodes of fault-redis-restart.test.ts (integration)
if ((!only || only === "integration" || only === "e2e") && !fs.existsSync(".next/BUILD_ID")) failed += run("npm", ["run", "build"]) === 0 ? 0 : 1;

if (!only || only === "unit" || only === "integration" || only === "fuzz") {
  // Node 20's --test takes no globs: list the files
  // the long integration files first, so the short unit files fill the gaps of the two parallel lanes
  const dirs = only ? [`tests/${only}`] : ["tests/integration", "tests/fuzz", "tests/unit"];
  const globs = dirs.flatMap((d) => fs.readdirSync(d, { recursive: true }).filter((f) => String(f).endsWith(".test.ts")).sort().map((f) => `${d}/${f}`));
  // --test-force-exit ends the runner before a file reporter flushes: read the summary from the spec output we relay
  let out = "";
  const status = await new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--test", `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`, "--test-force-exit", "--test-timeout=300000", "--test-reporter=spec", ...globs], { stdio: ["inherit", "pipe", "inherit"] });
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      out += chunk.toString();
      if (out.length > 200_000) out = out.slice(-100_000);
    });
    child.on("close", (code) => resolve(code ?? 1));
  });
  const num = (k) => Number((out.match(new RegExp(`^ℹ ${k} (\\d+)$`, "m")) ?? [])[1] ?? 0);
  counts.passed += num("pass");
  counts.failed += num("fail") + num("cancelled");
  counts.skipped += num("skipped") + num("todo");
  if (status !== 0) failed++;
  const at = out.lastIndexOf("✖ failing tests:");
  if (at >= 0) nodeFailures = out.slice(at).split("\n").filter((l) => !/^\s+at |^\s+(generatedMessage|code|actual|expected|operator):|^\s*[{}]\s*$/.test(l)).join("\n").slice(0, 8000);
}

if (!only || only === "e2e") {
  const status = run("npx", ["playwright", "test"]);
  try {
    const stats = JSON.parse(fs.readFileSync(".test-results/e2e.json", "utf8")).stats;
    counts.passed += stats.expected + (stats.flaky ?? 0);
    counts.failed += stats.unexpected;
    counts.skipped += stats.skipped;
  } catch {
    counts.failed += 1;
  }
  if (status !== 0) failed++;
}

if (nodeFailures) console.log(`\nnode:test, again (stack frames left out):\n${nodeFailures}`);
console.log(`\ntests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failed || counts.failed ? 1 : 0);
