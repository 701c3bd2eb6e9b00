import { SignInForm } from "@/components/auth/SignInForm";
import { getStudio } from "@/lib/studio/studio";

/** Answered with 401 to anyone not signed in (pageDoor): sign in here, then the page reloads. */
export default async function Unauthorized() {
  const studio = await getStudio();
  return <SignInForm sso={studio.identity.ssoProvider()} />;
}
