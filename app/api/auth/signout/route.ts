import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const POST = guard("/api/auth/signout", (req: Request) => getRegistry().auth.signOut(req));
