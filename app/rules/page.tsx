import type { Metadata } from "next";
import RulesPage from "@/components/rules/RulesPage";

export const metadata: Metadata = { title: "Rules · Moderation dashboard" };

export default function Page() {
  return <RulesPage />;
}
