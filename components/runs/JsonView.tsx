import { scrollRegion } from "@/components/ui/scroll-region";

/**
 * Pretty JSON, escaped by React; long documents scroll instead of stretching the page. The pane is
 * a named region a keyboard can focus, so it can be scrolled without a pointer.
 */
export function JsonView({ value, className = "", label = "JSON" }: { value: unknown; className?: string; label?: string }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? "undefined";
  } catch {
    text = String(value);
  }
  return (
    <pre
      {...scrollRegion(label)}
      className={`max-h-[480px] overflow-auto rounded-md bg-muted/60 p-3 font-mono text-[12px] leading-5 ${className}`}
      data-testid="json-view"
    >
      {text}
    </pre>
  );
}
