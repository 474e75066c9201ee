// The README's first run, as written: its terminal-2 block (between <!-- first-run --> and <!-- /first-run -->) is
// fed line by line to one bash against the real server (`ALLOW_PRIVATE_NETWORKS=1`, as its terminal 1 says) on a
// fresh data dir with a generated accessKey. Only ports, the data dir and the scratch folder are substituted.
// Asserts on what really comes back: the file's Query answer, the callbacks the README's receiver wrote, the
// stream's requestId and its stream-end after the Close.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Writable } from "node:stream";
import { after, before, test } from "node:test";
import { resolveFfmpegFrom } from "../../server/ingest/resolve";
import { freePort, startChildServer, type ChildServer } from "../support/child-server";
import { waitFor } from "../support/net";
import { firstRunCommands, readRepoFile } from "../support/readme";

const README = readRepoFile("README.md");
const commands = firstRunCommands(README);

let server: ChildServer;
let shell: ChildProcess;
let commandsIn: Writable;
let scratch: string;
let dataDir: string;
let port = 0;
const ports = { rtmp: 0, web: 0, receiver: 0 };

/** A README line with this run's ports and folders in place of the README's. */
function substitute(line: string): string {
  return line
    .replaceAll("localhost:3000", `127.0.0.1:${port}`)
    .replaceAll(":1935/", `:${ports.rtmp}/`)
    .replaceAll("8081", String(ports.web))
    .replaceAll("8082", String(ports.receiver))
    .replaceAll(".data/access-key", path.join(dataDir, "access-key"))
    .replaceAll("/tmp/mp-first-run", path.join(scratch, "mp-first-run"));
}

let seq = 0;
let out = "";
let err = "";
/** Runs one line in the shell; resolves with what it printed and its exit status. */
function run(line: string): Promise<{ stdout: string; status: number }> {
  const marker = `__first_run_${++seq}__`;
  const start = out.length;
  commandsIn.write(`${substitute(line)}\necho "${marker} $?"\n`);
  return waitFor(async () => {
    const m = new RegExp(`${marker} (\\d+)\\n`).exec(out.slice(start));
    return m ? { stdout: out.slice(start, start + m.index), status: Number(m[1]) } : null;
  }, 120_000, 50).catch((e: Error) => {
    throw new Error(`${e.message}: ${line}\nstdout: ${out.slice(start)}\nstderr: ${err.slice(-2000)}`);
  });
}

const line = (re: RegExp) => {
  const found = commands.find((c) => re.test(c));
  assert.ok(found, `the first-run block has a line matching ${re}`);
  return found;
};
const callbacks = () => {
  const file = path.join(scratch, "mp-first-run", "callbacks.log");
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => {
    const i = l.indexOf(" ");
    return { path: l.slice(0, i), body: JSON.parse(l.slice(i + 1)) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  });
};

before(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "readme-first-run-"));
  dataDir = path.join(scratch, "data");
  [port, ports.rtmp, ports.web, ports.receiver] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // the README's terminal 1 is `ALLOW_PRIVATE_NETWORKS=1 npm start`; the child server sets that flag too
  assert.match(README, /^ALLOW_PRIVATE_NETWORKS=1 npm start\s+# terminal 1$/m);
  server = await startChildServer({
    dataDir,
    timeoutMs: 120_000,
    // a generated accessKey in DATA_DIR/access-key, as on a fresh clone; the app's RTMP ingest on a free port
    env: { PORT: String(port), MODERATION_ACCESS_KEYS: "", RTMP_PORT: String(ports.rtmp), RTMP_HTTP_PORT: String(await freePort()) },
  });
  // the block calls `ffmpeg`: on a fresh Debian machine `npm start` installed it; here the one the server resolved
  const bin = path.join(scratch, "bin");
  fs.mkdirSync(bin);
  fs.symlinkSync(resolveFfmpegFrom(process.env).path, path.join(bin, "ffmpeg"));
  // the lines go in on fd 3 and stdin is empty, so a command that reads stdin cannot swallow the next lines
  shell = spawn("bash", ["--noprofile", "--norc", "-c", 'while IFS= read -r -u 3 line; do eval "$line"; done'], { detached: true, stdio: ["ignore", "pipe", "pipe", "pipe"], env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  commandsIn = shell.stdio[3] as Writable;
  shell.stdout!.on("data", (b: Buffer) => (out += b.toString()));
  shell.stderr!.on("data", (b: Buffer) => (err += b.toString()));
});

after(async () => {
  try {
    if (shell?.pid) process.kill(-shell.pid, "SIGKILL"); // the block's background jobs are in the shell's group
  } catch {
    // already gone
  }
  await server?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

test("the README's first-run block runs as written on a fresh data dir", { timeout: 240_000 }, async () => {
  const queryLine = line(/\/video\/query\/v4/);
  const closeLine = line(/\/finish_videostream\/v4/);
  const catLine = line(/^cat .*callbacks\.log$/);
  const tailLine = line(/^tail -n 1 .*callbacks\.log$/);
  for (const c of commands) {
    if (c === queryLine) {
      // "1101 while processing; run it again a few seconds later: 1100 with … its frames"
      const first = JSON.parse((await run(c)).stdout);
      assert.ok(first.code === 1101 || first.code === 1100, `query: ${JSON.stringify(first)}`);
      const done = await waitFor(async () => {
        const q = JSON.parse((await run(c)).stdout);
        return q.code === 1101 ? null : q;
      }, 120_000, 500);
      assert.equal(done.code, 1100, `the file's result: ${JSON.stringify(done)}`);
      assert.equal(done.btId, "first-run");
      assert.equal(done.riskLevel, "PASS", "the test pattern holds no QR code");
      assert.equal(done.frameDetail.length, 6, "12 s every 2 s, every frame listed (returnAllImg 1)");
      assert.ok(done.frameDetail.every((f: { riskLevel: string }) => f.riskLevel === "PASS"));
      continue;
    }
    if (c === catLine) {
      // the receiver gets the stream's frames, one a second (returnAllImg 1)
      await waitFor(async () => callbacks().filter((x) => x.path === "/live").length >= 2, 60_000, 200);
    }
    if (c === tailLine) {
      // "moments later the last line of the log is the stream-end" (returnFinishInfo 1)
      await waitFor(async () => callbacks().at(-1)?.body.statCode === 1, 60_000, 200);
    }
    if (c === closeLine) {
      const closed = JSON.parse((await run(c)).stdout);
      assert.equal(closed.code, 1100, `close: ${JSON.stringify(closed)}`);
      continue;
    }
    const r = await run(c);
    assert.equal(r.status, 0, `${c}\nexit ${r.status}\n${r.stdout}\n${err.slice(-2000)}`);
    if (/^curl -sI/.test(c)) assert.match(r.stdout, /^HTTP\/1\.[01] 200/, "the clip is served");
    if (/\/video\/v4/.test(c)) assert.deepEqual(pick(JSON.parse(r.stdout), ["code", "btId"]), { code: 1100, btId: "first-run" });
    if (/^RID=/.test(c)) assert.match(r.stdout, /^stream [0-9a-f]{32}\n$/, "the stream request answered a requestId");
    if (c === catLine) assert.match(r.stdout, /^\/live \{.*"contentType":1/m, "cat shows the frame callbacks");
    if (c === tailLine) assert.match(r.stdout, /^\/live \{.*"statCode":1/, "the last line is the stream-end");
  }

  const got = callbacks();
  const file = got.find((x) => x.path === "/file");
  assert.ok(file, "the file's result was called back to the README's receiver");
  assert.equal(file.body.code, 1100);
  assert.equal(file.body.frameDetail.length, 6);
  const live = got.filter((x) => x.path === "/live");
  const frames = live.filter((x) => x.body.statCode === 0);
  assert.ok(frames.length >= 2 && frames.every((f) => f.body.contentType === 1 && f.body.frameDetail?.riskLevel === "PASS"), "PASS frames called back");
  const rid = frames[0].body.requestId.split("_")[0];
  // after the Close: the stream-end (returnFinishInfo 1), last
  const end = got.at(-1)!;
  assert.equal(end.path, "/live");
  assert.equal(end.body.statCode, 1);
  assert.equal(end.body.requestId, rid);
  assert.equal(end.body.pullStreamSuccess, true);
});

function pick(o: Record<string, unknown>, keys: string[]) {
  return Object.fromEntries(keys.map((k) => [k, o[k]]));
}
