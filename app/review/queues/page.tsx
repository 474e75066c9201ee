import type { Metadata } from "next";
import QueueManager from "@/components/review/QueueManager";

export const metadata: Metadata = { title: "Review queues · Moderation dashboard" };

export default function Page() {
  return <QueueManager />;
}
