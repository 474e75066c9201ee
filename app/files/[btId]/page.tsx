import type { Metadata } from "next";
import FileResultPage from "@/components/files/result/FileResultPage";

type Props = { params: Promise<{ btId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { btId } = await params;
  return { title: `${btId} · Files · Moderation dashboard` };
}

export default async function Page({ params }: Props) {
  const { btId } = await params;
  return <FileResultPage btId={btId} />;
}
