import type { Metadata } from "next";
import { GeistSans } from "geist/font/sans";
import { GeistMono } from "geist/font/mono";
import { AppHeader } from "@/components/layout/AppHeader";
import { RouteFocus } from "@/components/layout/RouteFocus";
import { ThemeSync } from "@/components/layout/ThemeSync";
import { cspNonce, currentPrincipal } from "@/app/_auth/door";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Tool Studio", template: "%s · Tool Studio" },
  description: "See, try and audit the tools that AI agents call.",
  icons: { icon: "/icon.svg" },
};

// Chooses the theme before first paint: the saved choice, else the system's (ThemeSync does the
// same where this script cannot run).
const themeScript = `try{var t=localStorage.getItem("theme");if(t==="dark"||(!t&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const [nonce, who] = await Promise.all([cspNonce(), currentPrincipal()]);
  const user = who ? { name: who.name, actor: who.actor, role: who.role, via: who.via } : null;
  return (
    <html lang="en" suppressHydrationWarning className={`${GeistSans.variable} ${GeistMono.variable}`}>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen font-sans text-sm">
        <AppHeader user={user} />
        <main id="main" tabIndex={-1} className="mx-auto max-w-[1400px] px-4 py-5 outline-none sm:px-6">
          {children}
        </main>
        <RouteFocus />
        <ThemeSync />
      </body>
    </html>
  );
}
