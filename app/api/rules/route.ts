import { RuleInput } from "@/lib/rules";
import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";
import { json } from "../respond";
import { caller, parseBody } from "../incidents/parse";

export const dynamic = "force-dynamic";

export const GET = guard("/api/rules", async () => json({ rules: await getRegistry().rules.list() }));

export const POST = guard("/api/rules", async (req: Request) => {
  const body = await parseBody(req, RuleInput);
  if (!body.ok) return body.answer;
  return json({ rule: await getRegistry().rules.create(body.data, caller(req)) }, 201);
});
