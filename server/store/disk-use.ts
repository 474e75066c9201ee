import fs from "node:fs/promises";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { DiskCategory, DiskUse } from "../../lib/status";
import type { Store } from "./db";

/** Top-level entries of DATA_DIR holding the operators' reference lists (docs/dashboard.md "Reference lists"). */
const REFERENCE_DIRS = new Set(["face-gallery", "hash-bank", "audio-references", "keyword-lists", "policy"]);
const FRAME_EXT = new Set([".jpg", ".jpeg", ".png", ".webp"]);
const AUDIO_EXT = new Set([".wav", ".mp3", ".aac", ".m4a", ".ogg", ".opus", ".flac"]);

/** Which category a file under DATA_DIR counts in (`rel` is relative to DATA_DIR). */
export function categoryOf(rel: string): DiskCategory {
  const top = rel.split(path.sep)[0];
  if (top === "pglite") return "database";
  if (REFERENCE_DIRS.has(top)) return "referenceLists";
  if (top === "media") {
    const ext = path.extname(rel).toLowerCase();
    if (FRAME_EXT.has(ext)) return "frames";
    if (AUDIO_EXT.has(ext)) return "audioClips";
  }
  return "other";
}

/** Bytes used under DATA_DIR by category, plus the free space of its volume (fs.statfs). */
export async function measureDiskUse(dataDir: string, store: Store): Promise<DiskUse> {
  const bytes: Record<DiskCategory, number> = { frames: 0, audioClips: 0, database: 0, referenceLists: 0, other: 0 };
  const entries = await fs.readdir(dataDir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const file = path.join(e.parentPath, e.name);
    const size = (await fs.stat(file).catch(() => null))?.size ?? 0;
    bytes[categoryOf(path.relative(dataDir, file))] += size;
  }
  const external = store.backend === "postgres";
  if (external) {
    const res = (await store.db.execute(sql`SELECT pg_database_size(current_database())::bigint AS size`).catch(() => null)) as { rows?: Array<{ size: string | number }> } | null;
    bytes.database = Number(res?.rows?.[0]?.size ?? 0);
  }
  const st = await fs.statfs(dataDir).catch(() => null);
  return {
    dataDir,
    bytes,
    totalBytes: Object.values(bytes).reduce((a, b) => a + b, 0),
    databaseExternal: external,
    volume: st ? { freeBytes: st.bavail * st.bsize, sizeBytes: st.blocks * st.bsize } : null,
    measuredAt: new Date().toISOString(),
  };
}
