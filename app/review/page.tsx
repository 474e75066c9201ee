import type { Metadata } from "next";
import ReviewPage from "@/components/review/ReviewPage";

export const metadata: Metadata = { title: "Review · Moderation dashboard" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The queue's filters and current incident come from the query string (components/review/review-url.ts). */
export default async function Page({ searchParams }: Props) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) if (typeof v === "string") params.set(k, v);
  // keyed: a navigation to another query (the header's Review link, a link to one incident) starts from that query
  return <ReviewPage key={params.toString()} initialSearch={params.toString()} />;
}
