import { getRegistry } from "@/server/registry";
import { badRequest, json } from "../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

type Keywords = NonNullable<ReturnType<typeof getRegistry>["engine"]>["lists"]["keywords"];

/** Runs one keyword-list change; a client mistake (InputError, bad JSON) is a 400 naming the field. */
async function change(req: Request | null, fn: (k: Keywords, body: unknown) => Promise<unknown>) {
  const engine = getRegistry().engine;
  if (!engine) return json({ error: "keyword lists belong to the embedded service" }, 409);
  const body = req ? await req.json().catch(() => undefined) : null;
  if (body === undefined) return badRequest("a JSON body is required");
  try {
    return json({ ok: true, result: (await fn(engine.lists.keywords, body)) ?? null });
  } catch (err) {
    if (err instanceof Error && err.name === "InputError") return badRequest(err.message);
    throw err;
  }
}

/** Adds a word or phrase: `{ scope: "image" | "speech", list, entry }`. */
export const POST = guard("/api/lists/keywords", (req: Request) => change(req, (k, body) => k.add(body)));

/** Creates a list mapped to a label: `{ scope, list, type, riskLevel, labels: [l1, l2, l3] }`. */
export const PUT = guard("/api/lists/keywords", (req: Request) => change(req, (k, body) => k.createList(body)));

/** `?scope=&list=&entry=` removes an entry; without `entry`, deletes a list an operator created. */
export const DELETE = guard("/api/lists/keywords", (req: Request) => {
  const q = Object.fromEntries(new URL(req.url).searchParams);
  return change(null, (k) => (q.entry === undefined ? k.deleteList(q) : k.remove(q)));
});
