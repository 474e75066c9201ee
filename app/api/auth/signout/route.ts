import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export const POST = (req: Request) => getRegistry().auth.signOut(req);
