import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/audit", (req: Request) => getRegistry().auth.audit(req));
