import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";

/** Grace period between SIGTERM and SIGKILL when stopping a child. */
export const KILL_GRACE_MS = 2000;

/** Cap on retained stderr so a chatty or endless process cannot exhaust memory. */
const MAX_STDERR_CHARS = 4 * 1024 * 1024;
const MAX_STDOUT_BYTES = 64 * 1024 * 1024;

export type StopReason = "timeout" | "aborted";

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  /** Set when we stopped the child ourselves. */
  stoppedBy: StopReason | null;
  /** True when stdout passed MAX_STDOUT_BYTES and the rest was dropped. */
  stdoutTruncated: boolean;
}

export interface OwnedProcess {
  child: ChildProcess;
  /** Resolves when the child has exited (never rejects; spawn errors resolve with code null). */
  done: Promise<ProcessResult & { spawnError: Error | null }>;
  /** SIGTERM, then SIGKILL after KILL_GRACE_MS; resolves once the child is gone. */
  stop(reason: StopReason): Promise<void>;
}

export interface StartOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  onStderrLine?: (line: string) => void;
  /** When set, stdout is handed to the caller instead of being collected. */
  onStdout?: (chunk: Buffer) => void;
  /** Environment for the child (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Open fd 3 as an extra output pipe (read it from `child.stdio[3]`), e.g. for a second ffmpeg output. */
  extraOutputPipe?: boolean;
  /**
   * Its own process group: a signal sent to this server's group (Ctrl-C in a terminal, a supervisor signalling the
   * group) does not reach it, so the server alone decides when it stops (a worker handing a live stream over keeps
   * pulling until its successor captures). It still ends with this process: stop() or the exit hook below, and if
   * this process dies outright (kill -9, a hang-up), the kernel kills it (started through util-linux `setpriv
   * --pdeathsig KILL`; without setpriv, it ends at its next write to a pipe no one reads).
   */
  ownProcessGroup?: boolean;
}

/** util-linux setpriv (every Debian/Ubuntu has it): a child started through it is killed when this process dies. */
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p));

// Children still running when this Node process exits are killed, so none outlive the server or a test run.
const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function trackChild(child: ChildProcess): void {
  live.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", () => {
      for (const c of live) c.kill("SIGKILL");
    });
  }
}

/** Number of children started here that are still running (used by tests to prove nothing leaks). */
export function liveChildCount(): number {
  return live.size;
}

/** Spawns `bin args`, owns it until exit, and stops it on timeout or abort with a bounded wait. */
export function startProcess(bin: string, args: string[], opts: StartOptions = {}): OwnedProcess {
  const stdio: Array<"ignore" | "pipe"> = opts.extraOutputPipe ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"];
  const own = opts.ownProcessGroup === true;
  const [file, argv] = own && SETPRIV ? [SETPRIV, ["--pdeathsig", "KILL", "--", bin, ...args]] : [bin, args];
  const child = spawn(file, argv, { stdio, env: (opts.env ?? process.env) as NodeJS.ProcessEnv, detached: own });
  trackChild(child);

  const outChunks: Buffer[] = [];
  let outBytes = 0;
  let stdoutTruncated = false;
  let stderr = "";
  let pending = "";
  let stoppedBy: StopReason | null = null;
  let exited = false;

  child.stdout?.on("data", (chunk: Buffer) => {
    if (opts.onStdout) return opts.onStdout(chunk);
    if (outBytes + chunk.length > MAX_STDOUT_BYTES) {
      stdoutTruncated = true;
      return;
    }
    outChunks.push(chunk);
    outBytes += chunk.length;
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (text: string) => {
    stderr += text;
    if (stderr.length > MAX_STDERR_CHARS) stderr = stderr.slice(stderr.length - MAX_STDERR_CHARS / 2);
    if (!opts.onStderrLine) return;
    // ffmpeg ends progress lines with \r; treat both as line ends.
    const parts = (pending + text).split(/\r\n|\r|\n/);
    pending = parts.pop() ?? "";
    for (const line of parts) if (line) opts.onStderrLine(line);
  });

  const exitedPromise = new Promise<{ code: number | null; signal: NodeJS.Signals | null; spawnError: Error | null }>((resolve) => {
    child.once("error", (err) => {
      if (child.pid === undefined) resolve({ code: null, signal: null, spawnError: err });
    });
    child.once("close", (code, signal) => resolve({ code, signal, spawnError: null }));
  });

  const stop = async (reason: StopReason): Promise<void> => {
    if (exited) return;
    stoppedBy ??= reason;
    child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const killed = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        if (!exited) child.kill("SIGKILL");
        resolve();
      }, KILL_GRACE_MS);
    });
    await Promise.race([exitedPromise, killed]);
    clearTimeout(timer);
    await exitedPromise;
  };

  const timer = opts.timeoutMs && opts.timeoutMs > 0 ? setTimeout(() => void stop("timeout"), opts.timeoutMs) : undefined;
  const onAbort = () => void stop("aborted");
  if (opts.signal?.aborted) queueMicrotask(onAbort);
  else opts.signal?.addEventListener("abort", onAbort, { once: true });

  const done = exitedPromise.then(({ code, signal, spawnError }) => {
    exited = true;
    live.delete(child);
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
    if (pending && opts.onStderrLine) opts.onStderrLine(pending);
    return { code, signal, spawnError, stdout: Buffer.concat(outChunks), stderr, stoppedBy, stdoutTruncated };
  });

  return { child, done, stop };
}
