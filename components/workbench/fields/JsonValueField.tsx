"use client";
import { useEffect, useState } from "react";
import type { FieldProps } from "@rjsf/utils";
import { ariaDescribedByIds } from "@rjsf/utils";
import { parseJsonText } from "@/lib/forms/hints";

const show = (v: unknown) => (v === undefined ? "" : JSON.stringify(v, null, 2));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A parameter that takes any JSON value (no `type`, e.g. json_query's `data`): edited as JSON text.
 * It replaces RJSF's FallbackField, which would otherwise say "Unknown field type undefined".
 * Empty text is unset; text that does not parse is flagged here and reported to the workbench
 * (`formContext.onJsonFieldError`), which holds the Run until it is fixed.
 */
export function JsonValueField(props: FieldProps) {
  const { fieldPathId, formData, onChange, disabled, readonly, registry, rawErrors = [] } = props;
  const id = fieldPathId.$id;
  const report = (registry.formContext as { onJsonFieldError?(id: string, error: string | null): void } | undefined)?.onJsonFieldError;
  const [text, setText] = useState(() => show(formData));
  const [error, setError] = useState<string | null>(null);

  // Data set from outside (the JSON editor, a preset, Reset): show it, unless the text already says it.
  useEffect(() => {
    setText((t) => {
      const r = parseJsonText(t);
      return r.ok && same(r.value, formData) ? t : show(formData);
    });
  }, [formData]);
  useEffect(() => () => report?.(id, null), [report, id]);

  const edit = (next: string) => {
    setText(next);
    const r = parseJsonText(next);
    setError(r.ok ? null : r.error);
    report?.(id, r.ok ? null : r.error);
    if (r.ok) onChange(r.value, fieldPathId.path, undefined, id);
  };

  const invalid = error !== null || rawErrors.length > 0;
  return (
    <div className="flex flex-col gap-1">
      <textarea
        id={id}
        name={fieldPathId.name || id}
        value={text}
        onChange={(e) => edit(e.target.value)}
        disabled={disabled}
        readOnly={readonly}
        rows={Math.min(14, Math.max(4, text.split("\n").length + 1))}
        spellCheck={false}
        placeholder={'any JSON value, e.g. {"a": 1}'}
        aria-invalid={invalid || undefined}
        aria-describedby={[ariaDescribedByIds(id), error ? `${id}__json` : ""].filter(Boolean).join(" ")}
        className="w-full rounded-md border border-input bg-background px-2.5 py-1.5 font-mono text-[12.5px] shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive dark:bg-input/30"
        data-testid="json-value-field"
      />
      {error && (
        <p id={`${id}__json`} role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}
