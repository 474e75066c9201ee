import { redirect } from "next/navigation";
import { sessionUser } from "./session-user";

/** Each role's home page: reviewers work the review queue, everyone else starts on the Streams wall. */
export default async function Home() {
  const user = await sessionUser();
  redirect(user?.role === "reviewer" ? "/review" : "/streams");
}
