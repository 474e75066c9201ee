// Disk full on DATA_DIR (issue #30 item 3): frames, audio clips and the embedded database live there. New work is
// refused while the volume's free space is under DATA_DIR_MIN_FREE_MB (a clear 1903 with Retry-After), so a full
// disk never half-writes evidence of a task just accepted; the refusal lifts by itself once space is freed.
import fs from "node:fs/promises";
import { Code, codeMessage } from "../../lib/contract/codes";
import { ApiError } from "../task/errors";

/** Seconds a client is told to wait before retrying a request refused for a full DATA_DIR. */
const DISK_RETRY_SEC = 30;

/** Free bytes of DATA_DIR's volume, or null when it cannot be read. */
export async function freeBytes(dataDir: string): Promise<number | null> {
  const st = await fs.statfs(dataDir).catch(() => null);
  return st ? st.bavail * st.bsize : null;
}

/** DATA_DIR_MIN_FREE_MB (default 200 MB; 0 turns the check off). */
export function minFreeBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mb = Number(env.DATA_DIR_MIN_FREE_MB ?? 200);
  return Number.isFinite(mb) && mb > 0 ? mb * 1024 * 1024 : 0;
}

/** Throws a 1903 saying why when DATA_DIR has less free space than the minimum. */
export async function requireDiskRoom(dataDir: string): Promise<void> {
  const min = minFreeBytes();
  if (!min) return;
  const free = await freeBytes(dataDir);
  if (free === null || free >= min) return;
  throw Object.assign(new ApiError(Code.SERVICE_FAILURE, `${codeMessage(Code.SERVICE_FAILURE)}: DATA_DIR is almost full (${mb(free)} MB free, under DATA_DIR_MIN_FREE_MB=${mb(min)}); new work is refused until space is freed, retry later`), { retryAfterSec: DISK_RETRY_SEC });
}

const mb = (b: number) => Math.floor(b / (1024 * 1024));

/** How long a disk reading serves running streams' health before it is taken again. */
const SHORTAGE_REFRESH_MS = 2000;
const shortages = new Map<string, { at: number; message: string | null; reading: boolean }>();

/**
 * Why DATA_DIR cannot take more evidence now ("disk full: …"), or null: for a RUNNING stream's health (its strip says
 * why). Answers at once from the last reading and takes a new one in the background at most every 2 s, so every
 * stream's health tick of a process shares one statfs.
 */
export function diskShortage(dataDir: string): string | null {
  const min = minFreeBytes();
  if (!min) return null;
  let s = shortages.get(dataDir);
  if (!s) shortages.set(dataDir, (s = { at: 0, message: null, reading: false }));
  const entry = s;
  if (!entry.reading && Date.now() - entry.at >= SHORTAGE_REFRESH_MS) {
    entry.reading = true;
    void freeBytes(dataDir).then((free) => {
          entry.message = free !== null && free < min ? `disk full: DATA_DIR has ${mb(free)} MB free (under DATA_DIR_MIN_FREE_MB=${mb(min)}); frames are kept only while space lasts, new work is refused` : null;
      entry.at = Date.now();
      entry.reading = false;
    });
  }
  return entry.message;
}
