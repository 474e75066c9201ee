import type { Metadata } from "next";
import StreamPage from "@/components/streams/page/StreamPage";

type Props = { params: Promise<{ requestId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { requestId } = await params;
  return { title: `${requestId} · Streams · Moderation dashboard` };
}

export default async function Page({ params }: Props) {
  const { requestId } = await params;
  return <StreamPage requestId={requestId} />;
}
