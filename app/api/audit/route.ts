import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export const GET = (req: Request) => getRegistry().auth.audit(req);
