import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentPrincipal } from "@/app/_auth/door";
import { SignInForm } from "@/components/auth/SignInForm";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

/** Public (lib/auth/routes.ts): the one page anyone may open. */
export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; error?: string }> }) {
  const { next, error } = await searchParams;
  const safeNext = next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
  if (await currentPrincipal()) redirect(safeNext);
  const studio = await getStudio();
  return (
    <>
      {error && (
        <p
          role="alert"
          className="mx-auto mt-6 max-w-sm rounded-md border border-red-300 bg-red-50 px-3 py-2 text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          Single sign-on did not complete ({error.slice(0, 100)}).
        </p>
      )}
      <SignInForm sso={studio.identity.ssoProvider()} next={safeNext} />
    </>
  );
}
