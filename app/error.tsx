"use client";

import { useEffect, useState } from "react";
import { reportError } from "@/components/ui/report-error";

type Cause = "checking" | "database" | "offline" | "other";

/** How often the page asks whether the database is back. */
const POLL_MS = 5000;

/**
 * A page that failed to render. Production hides the server's message, so the page asks
 * /api/health whether the database is reachable: if not it says so, and reloads by itself once
 * the database is back; otherwise it points to the server log.
 */
export default function ErrorPage({ error, reset, retry }: { error: Error & { digest?: string }; reset(): void; retry?: () => void }) {
  const [cause, setCause] = useState<Cause>("checking");
  const again = retry ?? reset;

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wasDown = false;
    const check = async () => {
      const now: Cause = await fetch("/api/health", { cache: "no-store" }).then(
        (r) => (r.status === 503 ? "database" : "other"),
        () => "offline",
      );
      if (!live) return;
      if (now !== "other") {
        wasDown = true;
        setCause(now);
        timer = setTimeout(() => {
          check().catch(reportError);
        }, POLL_MS);
      } else if (wasDown) {
        again(); // back: render the page again
      } else {
        setCause("other");
      }
    };
    check().catch(reportError);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [again]);

  if (cause === "database" || cause === "offline") {
    return (
      <div role="alert" className="mx-auto max-w-lg py-16 text-center" data-testid={cause === "database" ? "database-unreachable" : "studio-offline"}>
        <h1 className="text-lg font-semibold">{cause === "database" ? "The database is unreachable" : "The studio is not answering"}</h1>
        <p className="mt-1 text-muted-foreground">
          {cause === "database" ? "The studio cannot reach its database right now." : "The studio server cannot be reached from this browser."} Nothing already
          stored is lost; this page reloads by itself when it is back.
        </p>
        <button type="button" onClick={again} className="mt-4 text-primary underline">
          Try again now
        </button>
      </div>
    );
  }
  return (
    <div role="alert" className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-lg font-semibold">Something went wrong</h1>
      <p className="mt-1 text-muted-foreground">
        {cause === "checking"
          ? "The studio could not load this page."
          : `The studio could not load this page${error.digest ? ` (error ${error.digest}; see the server log)` : ""}.`}
      </p>
      <button type="button" onClick={again} className="mt-4 text-primary underline">
        Try again
      </button>
    </div>
  );
}
