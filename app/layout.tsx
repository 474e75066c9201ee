import type { Metadata } from "next";
import type { ReactNode } from "react";
import TopNav from "@/components/layout/TopNav";
import AlertCenter from "@/components/alerts/AlertCenter";
import Providers from "./providers";
import { sessionUser } from "./session-user";
import "./globals.css";

export const metadata: Metadata = {
  title: "Moderation dashboard",
  description: "Submit video files for moderation and review the results",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const user = await sessionUser();
  return (
    <html lang="en">
      <body className="min-h-screen bg-surface font-sans text-sm text-zinc-200 antialiased">
        <Providers user={user}>
          {/* the first Tab stop: past the header's links straight to the page */}
          <a href="#content" className="sr-only rounded bg-sky-600 px-3 py-1.5 text-sm text-white focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50">
            Skip to content
          </a>
          <TopNav />
          <main id="content" tabIndex={-1} className="mx-auto max-w-7xl px-4 py-5 focus:outline-none">
            {children}
          </main>
          <AlertCenter />
        </Providers>
      </body>
    </html>
  );
}
