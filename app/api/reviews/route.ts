import { getRegistry } from "@/server/registry";
import { guard } from "@/server/auth/guard";

export const dynamic = "force-dynamic";

export const GET = guard("/api/reviews", (req: Request) => getRegistry().auth.reviews(req));
export const POST = guard("/api/reviews", (req: Request) => getRegistry().auth.recordReview(req));
