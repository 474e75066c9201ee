import type { Metadata } from "next";
import StatusPage from "@/components/status/StatusPage";

export const metadata: Metadata = { title: "Status · Moderation dashboard" };

export default function Page() {
  return <StatusPage />;
}
