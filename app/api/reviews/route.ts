import { getRegistry } from "@/server/registry";

export const dynamic = "force-dynamic";

export const GET = (req: Request) => getRegistry().auth.reviews(req);
export const POST = (req: Request) => getRegistry().auth.recordReview(req);
