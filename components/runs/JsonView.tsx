/** Pretty JSON, escaped by React; long documents scroll instead of stretching the page. */
export function JsonView({ value, className = "" }: { value: unknown; className?: string }) {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? "undefined";
  } catch {
    text = String(value);
  }
  return (
    <pre className={`max-h-[480px] overflow-auto rounded-md bg-muted/60 p-3 font-mono text-[12px] leading-5 ${className}`} data-testid="json-view">
      {text}
    </pre>
  );
}
