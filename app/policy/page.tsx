import type { Metadata } from "next";
import PolicyPage from "@/components/policy/PolicyPage";

export const metadata: Metadata = { title: "Policy · Moderation dashboard" };

export default function Page() {
  return <PolicyPage />;
}
