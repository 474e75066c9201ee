import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { AUDIO_BUSINESS_TYPES, AUDIO_TYPES, IMG_BUSINESS_TYPES, IMG_TYPES, parseTypeList } from "../../lib/contract/taxonomy";
import { fileCoverage, resultFactsOf, type FileCoverage, type FileRequestedTypes } from "../../lib/file-coverage";
import type { Db } from "../store/db";
import { receivedCallbacks, tasks } from "../store/schema";

export interface FileCoverageView {
  requested: FileRequestedTypes | null;
  coverage: FileCoverage | null;
}

const typesOf = (v: unknown, allowed: readonly string[]) => (typeof v === "string" ? parseTypeList(v, allowed).types.filter((t) => t !== "NONE") : []);

/** The types a stored /video/v4 request asked for (aliases resolved as the service resolves them). */
export function requestedTypesOf(request: Record<string, unknown>): FileRequestedTypes {
  return {
    image: [...typesOf(request.imgType, IMG_TYPES), ...typesOf(request.imgBusinessType, IMG_BUSINESS_TYPES)],
    audio: [...typesOf(request.audioType, AUDIO_TYPES), ...typesOf(request.audioBusinessType, AUDIO_BUSINESS_TYPES)],
  };
}

// what resultFactsOf reads from a result, without loading its frames: auxInfo and how many items each list holds
const itemCount = (json: SQL, key: "frameDetail" | "audioDetail") => {
  const list = sql`${json}->${sql.raw(`'${key}'`)}`;
  return sql<number>`CASE WHEN jsonb_typeof(${list}) = 'array' THEN jsonb_array_length(${list}) ELSE 0 END`;
};
const factsOf = (auxInfo: unknown, frames: number, audio: number) => resultFactsOf({ auxInfo, frameDetail: Array.from({ length: frames }), audioDetail: Array.from({ length: audio }) });

/**
 * Requested types and coverage of the listed files, by requestId. The embedded service's task row has both the
 * request and the result; a remote service's file has only the result it called back (its request is unknown).
 */
export async function coverageOfFiles(db: Db, files: Array<{ requestId: string; status: string }>): Promise<Map<string, FileCoverageView>> {
  const out = new Map<string, FileCoverageView>();
  if (files.length === 0) return out;
  const ids = files.map((f) => f.requestId);
  const result = sql`${tasks.result}`;
  const known = await db
    .select({ requestId: tasks.requestId, request: tasks.request, code: tasks.resultCode, auxInfo: sql<unknown>`${tasks.result}->'auxInfo'`, frames: itemCount(result, "frameDetail"), audio: itemCount(result, "audioDetail") })
    .from(tasks)
    .where(inArray(tasks.requestId, ids));
  for (const t of known) {
    const requested = requestedTypesOf(t.request);
    out.set(t.requestId, { requested, coverage: t.code === 1100 ? fileCoverage(requested, factsOf(t.auxInfo, Number(t.frames), Number(t.audio))) : null });
  }
  const remote = files.filter((f) => !out.has(f.requestId) && f.status === "done").map((f) => f.requestId);
  if (remote.length === 0) return out;
  const body = sql`${receivedCallbacks.body}`;
  const called = await db
    .select({ requestId: receivedCallbacks.requestId, auxInfo: sql<unknown>`${receivedCallbacks.body}->'auxInfo'`, frames: itemCount(body, "frameDetail"), audio: itemCount(body, "audioDetail") })
    .from(receivedCallbacks)
    .where(and(eq(receivedCallbacks.kind, "video"), inArray(receivedCallbacks.requestId, remote), sql`${receivedCallbacks.body}->>'code' = '1100'`))
    .orderBy(desc(receivedCallbacks.id));
  for (const c of called) {
    if (!out.has(c.requestId)) out.set(c.requestId, { requested: null, coverage: fileCoverage(null, factsOf(c.auxInfo, Number(c.frames), Number(c.audio))) });
  }
  return out;
}
