import type { z } from "zod";
import { IncidentQuery } from "@/lib/incidents";
import { IDENTITY_HEADERS } from "@/lib/roles";
import { badRequest } from "../respond";

/** Shared by the incident route handlers: parse with the zod schemas of lib/incidents.ts, or a 400 naming the field. */
export type Parsed<T> = { ok: true; data: T } | { ok: false; answer: Response };

const describe = (e: z.ZodError) => e.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");

export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<Parsed<z.output<S>>> {
  const r = schema.safeParse(await req.json().catch(() => undefined));
  return r.success ? { ok: true, data: r.data } : { ok: false, answer: badRequest(describe(r.error)) };
}

export function parseQuery(req: Request): Parsed<IncidentQuery> {
  const r = IncidentQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  return r.success ? { ok: true, data: r.data } : { ok: false, answer: badRequest(describe(r.error)) };
}

/** The caller, as the gate signed it in (guard() has checked this request's session against it). */
export const caller = (req: Request) => req.headers.get(IDENTITY_HEADERS.username) ?? "";
