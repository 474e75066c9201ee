import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export const GET = () => getRegistry().auth.users();
export const POST = (req: Request) => getRegistry().auth.createUser(req);
