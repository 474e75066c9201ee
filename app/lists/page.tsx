import type { Metadata } from "next";
import ListsPage from "@/components/lists/ListsPage";

export const metadata: Metadata = { title: "Lists · Moderation dashboard" };

export default function Page() {
  return <ListsPage />;
}
