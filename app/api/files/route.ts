import { FileSubmitInput } from "@/lib/dashboard-schemas";
import { getRegistry } from "@/server/registry";
import { badRequest, json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/files", async () => {
  return json({ files: await getRegistry().dashboard.listFiles() });
});

export const POST = guard("/api/files", async (req: Request) => {
  const parsed = FileSubmitInput.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return badRequest(parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  const answer = await getRegistry().dashboard.submitFile(parsed.data);
  return answer.ok ? json({ requestId: answer.requestId, btId: answer.btId }) : json({ error: answer.error, code: answer.code }, 422);
});
