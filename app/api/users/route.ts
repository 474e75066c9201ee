import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/users", () => getRegistry().auth.users());
export const POST = guard("/api/users", (req: Request) => getRegistry().auth.createUser(req));
