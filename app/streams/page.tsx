import type { Metadata } from "next";
import StreamsPage from "@/components/streams/StreamsPage";

export const metadata: Metadata = { title: "Streams · Moderation dashboard" };

export default function Page() {
  return <StreamsPage />;
}
