import type { z } from "zod";
import { IncidentQuery } from "@/lib/incidents";
import { IDENTITY_HEADERS } from "@/lib/roles";
import { badRequest, issuesText } from "../respond";

/** Shared by the incident route handlers: parse with the zod schemas of lib/incidents.ts, or a 400 naming the field. */
export type Parsed<T> = { ok: true; data: T } | { ok: false; answer: Response };

const checked = <S extends z.ZodType>(schema: S, raw: unknown): Parsed<z.output<S>> => {
  const r = schema.safeParse(raw);
  return r.success ? { ok: true, data: r.data } : { ok: false, answer: badRequest(issuesText(r.error)) };
};

export async function parseBody<S extends z.ZodType>(req: Request, schema: S): Promise<Parsed<z.output<S>>> {
  return checked(schema, await req.json().catch(() => undefined));
}

/** A body that may be left out: empty (or white space) reads as `{}`; text that is not JSON is a 400 `body: not JSON`. */
export async function parseOptionalBody<S extends z.ZodType>(req: Request, schema: S): Promise<Parsed<z.output<S>>> {
  const text = await req.text();
  let raw: unknown = {};
  try {
    raw = text.trim() ? JSON.parse(text) : {};
  } catch {
    return { ok: false, answer: badRequest("body: not JSON") };
  }
  return checked(schema, raw);
}

export function parseQuery(req: Request): Parsed<IncidentQuery> {
  return checked(IncidentQuery, Object.fromEntries(new URL(req.url).searchParams));
}

/** The caller, as the gate signed it in (guard() has checked this request's session against it). */
export const caller = (req: Request) => req.headers.get(IDENTITY_HEADERS.username) ?? "";
