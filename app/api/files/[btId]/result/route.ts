import { getRegistry } from "@/server/registry";
import { json } from "../../../respond";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/files/[btId]/result", async (_req: Request, ctx: { params: Promise<{ btId: string }> }) => {
  const { btId } = await ctx.params;
  try {
    return json(await getRegistry().dashboard.fileResult(btId));
  } catch (err) {
    return json({ error: `service unreachable: ${(err as Error).message}` }, 502);
  }
});
