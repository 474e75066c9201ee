import type { Metadata } from "next";
import AccountPage from "@/components/auth/AccountPage";
import { sessionUser } from "../session-user";

export const metadata: Metadata = { title: "Account · Moderation dashboard" };

export default async function Page() {
  const user = await sessionUser();
  return <AccountPage user={user} mustChange={user?.mustChangePassword ?? false} />;
}
