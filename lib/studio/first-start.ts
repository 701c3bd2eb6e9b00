import { issueFirstAdminLink } from "../auth/first-admin";
import { publicBaseUrl } from "../auth/identity";
import { trustedProxiesFromEnv } from "../http/client-address";
import { bindProblem } from "../http/guard";
import { getStudio } from "./studio";

/**
 * Off loopback, the studio starts only when it knows the names it is reached by; and not with a
 * STUDIO_TRUSTED_PROXIES it cannot read (every sign-in would fail on it later).
 */
export function refuseUnsafeBind(): void {
  const problem = startProblem();
  if (!problem) return;
  console.error(`[tool-studio] refusing to start: ${problem}`);
  process.exit(1);
}

/** Prints the first-admin link when nobody can sign in yet (each start prints a fresh one). */
export async function announceFirstAdminLink(): Promise<void> {
  try {
    const studio = await getStudio();
    const link = await issueFirstAdminLink(studio.users.prisma, publicBaseUrl());
    if (!link) return;
    const bar = "─".repeat(72);
    console.log(`\n${bar}\n  No one can sign in yet. Open this one-time link to become the first admin:\n\n    ${link}\n${bar}\n`);
  } catch (err) {
    console.error("[tool-studio] could not prepare the first-admin link", err);
  }
}

/** Why the studio must not start with this environment, or null. */
export function startProblem(env: Record<string, string | undefined> = process.env): string | null {
  return bindProblem(env) ?? proxiesProblem(env);
}

function proxiesProblem(env: Record<string, string | undefined>): string | null {
  try {
    trustedProxiesFromEnv(env);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
