"use client";

import { Check, Copy, Download } from "lucide-react";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";

/**
 * Copy a schema to the clipboard, or download it as `<name>.schema.json`; with `exportHref`
 * (the download route), also as TypeScript types and a zod schema.
 */
export function SchemaActions({ schema, fileName, exportHref }: { schema: unknown; fileName: string; exportHref?: string }) {
  const [copied, setCopied] = useState<"ok" | "failed" | null>(null);
  const text = JSON.stringify(schema, null, 2) + "\n";
  const safeName = fileName.replace(/[^A-Za-z0-9._-]+/g, "_") || "inferred";

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("ok");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied(null), 1500);
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: "application/schema+json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `${safeName}.schema.json`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <div className="flex items-center gap-1.5">
      <button type="button" className={buttonClass.ghost} onClick={copy} data-testid="schema-copy">
        {copied === "ok" ? <Check className="size-3.5" /> : <Copy className="size-3.5" />}
        {copied === "ok" ? "Copied" : copied === "failed" ? "Copy failed" : "Copy"}
      </button>
      <button type="button" className={buttonClass.ghost} onClick={download} data-testid="schema-download">
        <Download className="size-3.5" /> Download
      </button>
      {exportHref && (
        <>
          <a className={buttonClass.ghost} href={`${exportHref}&format=typescript`} download data-testid="schema-download-ts">
            <Download className="size-3.5" /> TypeScript
          </a>
          <a className={buttonClass.ghost} href={`${exportHref}&format=zod`} download data-testid="schema-download-zod">
            <Download className="size-3.5" /> zod
          </a>
        </>
      )}
    </div>
  );
}
