import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export async function PATCH(req: Request, ctx: { params: Promise<{ userId: string }> }) {
  return getRegistry().auth.updateUser(req, (await ctx.params).userId);
}
