/**
 * Runs once when the server starts: refuses an unsafe bind, then, on a studio with no users
 * yet, prints the one-time link that makes whoever opens it the first admin.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { refuseUnsafeBind, announceFirstAdminLink } = await import("./lib/studio/first-start");
  refuseUnsafeBind();
  await announceFirstAdminLink();
}
