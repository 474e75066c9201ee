import type { Metadata } from "next";
import UsersPage from "@/components/users/UsersPage";
import { TeamWellnessPanel } from "@/components/settings/SettingsPanels";

export const metadata: Metadata = { title: "Users · Moderation dashboard" };

export default function Page() {
  return (
    <div className="space-y-4">
      <UsersPage />
      <TeamWellnessPanel />
    </div>
  );
}
