"use client";

import { Check, Copy, Download } from "lucide-react";
import { useState } from "react";
import { buttonClass } from "@/components/ui/button-styles";
import { attachmentName, saveBlob as save } from "@/components/ui/save-file";

/**
 * Copy a schema to the clipboard, or download it as `<name>.schema.json`; with `exportHref`
 * (the download route), also as TypeScript types and a zod schema.
 */
export function SchemaActions({ schema, fileName, exportHref }: { schema: unknown; fileName: string; exportHref?: string }) {
  const [copied, setCopied] = useState<"ok" | "failed" | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
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
    save(new Blob([text], { type: "application/schema+json" }), `${safeName}.schema.json`);
  }

  /** A generated file (TypeScript, zod) from the download route, saved under the name it gives. */
  async function exportAs(format: "typescript" | "zod") {
    setExportError(null);
    const res = await fetch(`${exportHref}&format=${format}`, { cache: "no-store" }).catch(() => null);
    if (!res?.ok) {
      setExportError(`The ${format === "zod" ? "zod" : "TypeScript"} file could not be made.`);
      return;
    }
    const name = attachmentName(res, `${safeName}.${format === "zod" ? "zod.ts" : "d.ts"}`);
    save(await res.blob(), name);
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
          <button type="button" className={buttonClass.ghost} onClick={() => exportAs("typescript")} data-testid="schema-download-ts">
            <Download className="size-3.5" /> TypeScript
          </button>
          <button type="button" className={buttonClass.ghost} onClick={() => exportAs("zod")} data-testid="schema-download-zod">
            <Download className="size-3.5" /> zod
          </button>
          {exportError && (
            <span role="alert" className="text-[12px] text-destructive">
              {exportError}
            </span>
          )}
        </>
      )}
    </div>
  );
}
