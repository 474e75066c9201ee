import { getRegistry } from "@/server/registry";
import { json } from "../../../respond";

export const dynamic = "force-dynamic";

export async function GET(_req: Request, ctx: { params: Promise<{ btId: string }> }) {
  const { btId } = await ctx.params;
  try {
    return json(await getRegistry().dashboard.fileResult(btId));
  } catch (err) {
    return json({ error: `service unreachable: ${(err as Error).message}` }, 502);
  }
}
