"use client";
import type { ReactNode } from "react";
import { inlineMarkdown } from "@/lib/forms/inline-markdown";

// Stands in for `markdown-to-jsx/react` (next.config.mjs aliases it here): RJSF imports it in every
// form for messages the studio shows rarely and Markdown descriptions it never turns on.
export function Markdown({ children, "data-testid": testId }: { children?: ReactNode; options?: unknown; "data-testid"?: string }) {
  if (typeof children !== "string") return <span data-testid={testId}>{children}</span>;
  return (
    <span data-testid={testId}>
      {inlineMarkdown(children).map((s, i) =>
        s.kind === "code" ? (
          <code key={i}>{s.text}</code>
        ) : s.kind === "em" ? (
          <em key={i}>{s.text}</em>
        ) : s.kind === "strong" ? (
          <strong key={i}>{s.text}</strong>
        ) : (
          s.text
        ),
      )}
    </span>
  );
}

export default Markdown;
