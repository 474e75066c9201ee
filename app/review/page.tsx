import type { Metadata } from "next";
import ReviewPage from "@/components/review/ReviewPage";

export const metadata: Metadata = { title: "Review · Moderation dashboard" };

type Props = { searchParams: Promise<{ id?: string | string[] }> };

export default async function Page({ searchParams }: Props) {
  const { id } = await searchParams;
  return <ReviewPage initialId={typeof id === "string" && /^[0-9a-f]{16}$/.test(id) ? id : null} />;
}
