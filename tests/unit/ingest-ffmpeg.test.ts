import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { FfmpegError, ffmpegArgv, protocolWhitelistFor, resolveFfmpeg, runFfmpeg, withProtocolWhitelists } from "../../server/ingest/ffmpeg";
import { classifyStderr } from "../../server/ingest/ffmpeg-error";
import { KILL_GRACE_MS, liveChildCount, startProcess } from "../../server/ingest/process";
import { resolveFfmpegFrom } from "../../server/ingest/resolve";
import { makeCorruptFile, makeVideo, mediaDir, startStaticServer } from "../support/media";
import { waitFor } from "../support/net";

let server: Awaited<ReturnType<typeof startStaticServer>>;
let video: string;
before(async () => {
  video = await makeVideo({ name: "ffmpeg-unit", durationSec: 2, width: 320, height: 180, audio: "none" });
  server = await startStaticServer(mediaDir());
});
after(() => server.close());

async function failureKind(p: Promise<unknown>): Promise<string> {
  const err = await p.then(() => null, (e: unknown) => e);
  assert.ok(err instanceof FfmpegError, `expected an FfmpegError, got ${String(err)}`);
  assert.ok(err.stderrTail.length > 0 || err.kind === "timeout" || err.kind === "killed", "stderr tail kept for diagnosis");
  return err.kind;
}

test("resolution order: FFMPEG_PATH, then PATH, then the npm binary", () => {
  const onPath = resolveFfmpegFrom({ PATH: process.env.PATH });
  assert.equal(onPath.source, "PATH");
  const npm = resolveFfmpegFrom({ PATH: "/nonexistent" });
  assert.equal(npm.source, "npm");
  assert.match(npm.path, /@ffmpeg-installer/);
  assert.deepEqual(resolveFfmpegFrom({ FFMPEG_PATH: npm.path, PATH: process.env.PATH }), { path: npm.path, source: "FFMPEG_PATH" });
  const r = resolveFfmpeg();
  assert.ok(path.isAbsolute(r.path));
  assert.deepEqual(resolveFfmpeg(), r, "memoised");
});

test("protocol whitelist matches the input", () => {
  assert.equal(protocolWhitelistFor("/tmp/a.mp4"), "file,pipe");
  assert.equal(protocolWhitelistFor("file:/tmp/a.mp4"), "file,pipe");
  assert.equal(protocolWhitelistFor("relative/a:b.mp4"), "file,pipe");
  for (const net of ["http://h/a.m3u8", "HTTPS://h/a.mp4"]) {
    const wl = protocolWhitelistFor(net).split(",");
    assert.ok(wl.includes("http") && wl.includes("https") && wl.includes("tcp") && wl.includes("tls") && !wl.includes("file"), net);
  }
  assert.ok(protocolWhitelistFor("rtmp://h/live/k").split(",").includes("rtmp"));
  assert.ok(!protocolWhitelistFor("rtmp://h/live/k").split(",").includes("file"));
  for (const bad of ["concat:a|b", "data:x", "ftp://h/x", "subfile:,,start,0,end,0,:/etc/passwd"]) assert.equal(protocolWhitelistFor(bad), "file,pipe", bad);
});

test("argv: whitelist first, then -hide_banner -nostdin; every later input gets its own", () => {
  const argv = ffmpegArgv(["-ss", "3", "-i", "http://h/a.mp4", "-i", "/tmp/b.png", "-f", "null", "-"]);
  assert.deepEqual(argv.slice(0, 2), ["-protocol_whitelist", protocolWhitelistFor("http://h/a.mp4")]);
  assert.ok(argv.includes("-hide_banner") && argv.includes("-nostdin"));
  const second = argv.indexOf("/tmp/b.png");
  assert.deepEqual(argv.slice(second - 3, second + 1), ["-protocol_whitelist", "file,pipe", "-i", "/tmp/b.png"]);
  const own = withProtocolWhitelists(["-protocol_whitelist", "file", "-i", "x.mp4"]);
  assert.equal(own.filter((a) => a === "-protocol_whitelist").length, 1, "a caller's own whitelist is kept");
});

test("stderr classification", () => {
  assert.equal(classifyStderr("http://h/x: Server returned 404 Not Found"), "not-found");
  assert.equal(classifyStderr("Server returned 403 Forbidden (access denied)"), "forbidden");
  assert.equal(classifyStderr("tcp: Connection refused"), "refused");
  assert.equal(classifyStderr("moov atom not found\nx.mp4: Invalid data found when processing input"), "invalid-data");
  assert.equal(classifyStderr("Stream map '0:a:0' matches no streams."), "no-stream");
  assert.equal(classifyStderr("Protocol 'concat' not on whitelist 'file,pipe'!"), "forbidden");
  assert.equal(classifyStderr("Connection timed out"), "timeout");
  assert.equal(classifyStderr("Conversion failed!"), "failed");
});

test("runFfmpeg classifies real failures", async () => {
  assert.equal(await failureKind(runFfmpeg(["-i", `${server.url}/missing.mp4`, "-f", "null", "-"])), "not-found");
  assert.equal(await failureKind(runFfmpeg(["-i", `${server.url}/__status/403`, "-f", "null", "-"])), "forbidden");
  assert.equal(await failureKind(runFfmpeg(["-i", await makeCorruptFile("ffmpeg-unit-corrupt"), "-f", "null", "-"])), "invalid-data");
  assert.equal(await failureKind(runFfmpeg(["-i", video, "-map", "0:a:0", "-f", "null", "-"])), "no-stream");
  assert.equal(await failureKind(runFfmpeg(["-i", `concat:${video}|${video}`, "-f", "null", "-"])), "forbidden", "concat: is not whitelisted");
  assert.equal(await failureKind(runFfmpeg(["-i", path.join(mediaDir(), "no-such-file.mp4"), "-f", "null", "-"])), "not-found");
  const port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  assert.equal(await failureKind(runFfmpeg(["-i", `http://127.0.0.1:${port}/x.mp4`, "-f", "null", "-"])), "refused");
});

test("runFfmpeg reads a file over HTTP and reports stderr lines", async () => {
  const lines: string[] = [];
  const name = path.basename(video);
  const { stderr } = await runFfmpeg(["-i", `${server.url}/${name}`, "-map", "0:v:0", "-vf", "showinfo", "-f", "null", "-"], { onStderrLine: (l) => lines.push(l) });
  assert.equal(lines.filter((l) => l.includes("pts_time:")).length, 50, "2 s at 25 fps");
  assert.ok(stderr.includes("Input #0"));
});

test("timeout and abort stop ffmpeg; the child never outlives the call", async () => {
  const endless = ["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-f", "null", "-"];
  const t0 = Date.now();
  assert.equal(await failureKind(runFfmpeg(endless, { timeoutMs: 300 })), "timeout");
  assert.ok(Date.now() - t0 < 300 + KILL_GRACE_MS + 1000);
  const ac = new AbortController();
  const run = runFfmpeg(endless, { signal: ac.signal, onStderrLine: () => ac.abort() });
  assert.equal(await failureKind(run), "killed");
  assert.equal(liveChildCount(), 0);
});

test("a child that ignores SIGTERM is killed after the grace period", async () => {
  const proc = startProcess("sh", ["-c", "trap '' TERM; echo ready; exec sleep 30"]);
  await new Promise<void>((resolve) => proc.child.stdout?.once("data", () => resolve()));
  const t0 = Date.now();
  await proc.stop("aborted");
  const waited = Date.now() - t0;
  const result = await proc.done;
  assert.equal(result.signal, "SIGKILL");
  assert.equal(result.stoppedBy, "aborted");
  assert.ok(waited >= KILL_GRACE_MS - 100 && waited < KILL_GRACE_MS + 1500, `stopped after ${waited} ms`);
  assert.equal(liveChildCount(), 0);
});

test("a live pull's ffmpeg runs in its own process group: a signal to the server's group misses it, and it dies with the server killed outright", { timeout: 60_000 }, async (t) => {
  // a stand-in server: starts ffmpeg as a live pull does (own group), prints its pid, then waits. This ffmpeg writes
  // nothing to its pipes (as a pull of a silent source, or a frames-only pull between frames): only the kernel's
  // parent-death signal can end it when the server is gone
  const script = `
    import { startProcess } from ${JSON.stringify(path.resolve("server/ingest/process.ts"))};
    const p = startProcess(${JSON.stringify(resolveFfmpeg().path)}, ["-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-f", "null", "-"], { ownProcessGroup: true });
    console.log("pid " + p.child.pid);
    setInterval(() => undefined, 1000);`;
  const server = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
  const pid = await new Promise<number>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /pid (\S+)\n/.exec(out);
      if (!m) return;
      if (Number.isInteger(Number(m[1]))) resolve(Number(m[1]));
      else reject(new Error(`ffmpeg did not start: ${out}`));
    });
    server.once("exit", () => reject(new Error(`stand-in server exited: ${out}`)));
  });
  const stat = (p: number) => readFileSync(`/proc/${p}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
  const killServer = () => {
    try {
      process.kill(-server.pid!, "SIGKILL");
    } catch {
      // gone
    }
  };
  t.after(killServer);
  t.after(() => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  });
  // field 3 after the name: the process group
  assert.notEqual(stat(pid)[2], stat(server.pid!)[2], "ffmpeg is not in the server's process group");
  const exited = new Promise((r) => server.once("exit", r));
  killServer();
  await exited;
  // the kernel kills it with the server (a zombie waiting for init counts as gone)
  const gone = () => {
    try {
      return stat(pid)[0] === "Z";
    } catch {
      return true;
    }
  };
  await waitFor(async () => gone(), 20_000, 100);
});
