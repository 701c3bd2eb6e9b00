"use client";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset(): void }) {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <h1 className="text-lg font-semibold">Something went wrong</h1>
      <p className="mt-1 text-muted-foreground">The studio could not load this page{error.digest ? ` (error ${error.digest}; see the server log)` : ""}.</p>
      <button type="button" onClick={reset} className="mt-4 text-primary underline">Try again</button>
    </div>
  );
}
