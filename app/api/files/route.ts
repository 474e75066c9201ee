import { FileSubmitInput } from "@/lib/dashboard-schemas";
import { getRegistry } from "@/server/registry";
import { badRequest, issuesText, json } from "../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

/** as the access table's JSON_BODY_MAX (server/auth/access.ts): the route's own cap is lifted for uploads */
const JSON_BODY_MAX = 64 * 1024;

export const GET = guard("/api/files", async () => {
  return json({ files: await getRegistry().dashboard.listFiles() });
});

/** JSON with `url` (a file on the web), or multipart/form-data with a `file` part and an `input` part (an upload). */
export const POST = guard("/api/files", async (req: Request) => {
  if (/^multipart\/form-data/i.test(req.headers.get("content-type") ?? "")) return upload(req);
  if (Number(req.headers.get("content-length") ?? 0) > JSON_BODY_MAX) return json({ error: `a JSON body is at most ${JSON_BODY_MAX} bytes (upload files as multipart/form-data)` }, 413);
  const parsed = FileSubmitInput.safeParse(await req.json().catch(() => null));
  if (!parsed.success) return badRequest(issuesText(parsed.error));
  const answer = await getRegistry().dashboard.submitFile(parsed.data);
  return answer.ok ? json({ requestId: answer.requestId, btId: answer.btId }) : json({ error: answer.error, code: answer.code }, 422);
});

async function upload(req: Request) {
  const answer = await getRegistry().dashboard.uploadFile(req, (input) => {
    const r = FileSubmitInput.safeParse(input);
    return r.success ? { ok: true, data: r.data } : { ok: false, error: r.error.issues.map((i) => `input.${i.path.join(".")}: ${i.message}`).join("; ") };
  });
  if (answer.ok) return json({ requestId: answer.requestId, btId: answer.btId, file: answer.file });
  return json({ error: answer.error, code: answer.code }, answer.status ?? 422);
}
