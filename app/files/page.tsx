import type { Metadata } from "next";
import FilesPage from "@/components/files/FilesPage";

export const metadata: Metadata = { title: "Files · Moderation dashboard" };

export default function Page() {
  return <FilesPage />;
}
