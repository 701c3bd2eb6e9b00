import Link from "next/link";
import { actorLabel } from "@/lib/auth/principal";
import { currentPrincipal } from "@/app/_auth/door";

/** Answered with 403 when the signed-in role may not open a page. */
export default async function Forbidden() {
  const who = await currentPrincipal();
  return (
    <div className="mx-auto mt-10 max-w-md rounded-lg border bg-card p-6">
      <h1 className="mb-2 text-lg font-semibold">Not for your role</h1>
      <p className="text-muted-foreground">
        {who ? `You are signed in as ${actorLabel(who.actor)} with the ${who.role} role, which may not open this page.` : "Your role may not open this page."}{" "}
        Ask an admin for a higher role.
      </p>
      <p className="mt-4">
        <Link className="underline" href="/">
          Back to the tools
        </Link>
      </p>
    </div>
  );
}
