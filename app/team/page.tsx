import type { Metadata } from "next";
import MetricsPage from "@/components/metrics/MetricsPage";

export const metadata: Metadata = { title: "Team metrics · Moderation dashboard" };

/** Team review metrics (GET /api/metrics/review): supervisors see the team, reviewers their own figures. */
export default function Page() {
  return <MetricsPage />;
}
