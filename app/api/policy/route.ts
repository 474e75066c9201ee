import { getRegistry } from "@/server/registry";
import { badRequest, json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

type Policy = NonNullable<ReturnType<typeof getRegistry>["engine"]>["lists"]["policy"];

/** Runs one policy call; a client mistake (InputError, bad JSON) is a 400 naming the field. */
async function call(req: Request | null, fn: (p: Policy, body: unknown) => Promise<unknown>) {
  const engine = getRegistry().engine;
  if (!engine) return json({ error: "the policy belongs to the embedded service" }, 409);
  const body = req ? await req.json().catch(() => undefined) : null;
  if (body === undefined) return badRequest("a JSON body is required");
  try {
    return json(await fn(engine.lists.policy, body));
  } catch (err) {
    if (err instanceof Error && err.name === "InputError") return badRequest(err.message);
    throw err;
  }
}

/** The effective thresholds per detector and label (defaults, overrides, what applies). */
export const GET = guard("/api/policy", () => call(null, (p) => p.get()));

/** Merges `{ rules: { "<key>": { review?, reject?, enabled? } } }` into the overrides. */
export const PATCH = guard("/api/policy", (req: Request) => call(req, (p, body) => p.update(body)));

/** Replaces every override with the given ones. */
export const PUT = guard("/api/policy", (req: Request) => call(req, (p, body) => p.replace(body)));

/** Back to the defaults: `?key=<rule>` for one rule, all without it. */
export const DELETE = guard("/api/policy", (req: Request) => call(null, (p) => p.reset(new URL(req.url).searchParams.get("key"))));
