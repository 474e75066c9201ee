import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const PATCH = guard("/api/users/[userId]", async (req: Request, ctx: { params: Promise<{ userId: string }> }) => {
  return getRegistry().auth.updateUser(req, (await ctx.params).userId);
});
