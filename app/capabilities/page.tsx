import type { Metadata } from "next";
import CapabilitiesPage from "@/components/capabilities/CapabilitiesPage";

export const metadata: Metadata = { title: "Capabilities · Moderation dashboard" };

export default function Page() {
  return <CapabilitiesPage />;
}
