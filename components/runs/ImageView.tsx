"use client";
import { useRef, useState } from "react";
import { Download, X, ZoomIn } from "lucide-react";
import { buttonClass } from "@/components/ui/button-styles";

/**
 * An image from a run: a thumbnail that opens at full size in a modal dialog (Escape or Close shuts
 * it, focus returns), and a download under a sensible file name.
 */
export function ImageView({ src, alt, name }: { src: string; alt: string; name: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  // The full-size copy exists only while the dialog is open (one image in the page otherwise).
  const [open, setOpen] = useState(false);
  // An icon-sized image is drawn larger, in crisp pixels, so there is something to see.
  const [tiny, setTiny] = useState(false);
  const show = () => {
    setOpen(true);
    dialog.current?.showModal();
  };
  return (
    <div className="space-y-1.5" data-testid="image-view">
      <button
        type="button"
        onClick={show}
        className="group relative flex min-h-16 min-w-16 max-w-full items-center justify-center rounded-md border bg-white p-1"
        aria-label={`Zoom: ${alt}`}
        data-testid="image-zoom"
      >
        {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL from the run, not an asset */}
        <img
          src={src}
          alt={alt}
          className={`max-h-[480px] max-w-full rounded-sm ${tiny ? "w-14 [image-rendering:pixelated]" : ""}`}
          onLoad={(e) => setTiny(e.currentTarget.naturalWidth > 0 && e.currentTarget.naturalWidth < 48 && e.currentTarget.naturalHeight < 48)}
        />
        <ZoomIn className="absolute right-1.5 top-1.5 size-5 rounded bg-background/80 p-0.5 opacity-70 group-hover:opacity-100" aria-hidden />
      </button>
      <div className="flex flex-wrap items-center gap-2 text-[12px]">
        <a href={src} download={name} className="inline-flex items-center gap-1 text-primary underline" data-testid="image-download">
          <Download className="size-3.5" aria-hidden /> Download {name}
        </a>
      </div>
      <dialog
        ref={dialog}
        aria-label={`${alt}, full size`}
        className="m-auto max-h-[92vh] max-w-[96vw] rounded-lg border bg-card p-0 text-foreground shadow-xl backdrop:bg-black/60"
        data-testid="image-dialog"
        onClose={() => setOpen(false)}
        onClick={(e) => e.target === e.currentTarget && dialog.current?.close()}
      >
        <div className="sticky top-0 flex items-center gap-2 border-b bg-card px-3 py-2">
          <span className="truncate font-mono text-[12px]">{name}</span>
          <a href={src} download={name} className={`ml-auto ${buttonClass.ghost}`}>
            <Download className="size-3.5" aria-hidden /> Download
          </a>
          <button type="button" className={buttonClass.ghost} onClick={() => dialog.current?.close()} autoFocus>
            <X className="size-3.5" aria-hidden /> Close
          </button>
        </div>
        {open && (
          <div className="overflow-auto p-3">
            {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL from the run, not an asset */}
            <img src={src} alt={alt} className="max-w-none bg-white [image-rendering:pixelated]" style={{ minWidth: 256 }} data-testid="image-full" />
          </div>
        )}
      </dialog>
    </div>
  );
}
