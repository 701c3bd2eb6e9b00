import Link from "next/link";

export default function NotFound() {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-lg font-semibold">Not found</h1>
      <p className="mt-1 text-muted-foreground">No tool or run lives at this address.</p>
      <Link href="/" className="mt-4 inline-block text-primary underline">
        Back to the tools
      </Link>
    </div>
  );
}
