"use client";
import type { WidgetProps } from "@rjsf/utils";
import { ariaDescribedByIds, enumOptionsIndexForValue, enumOptionsValueForIndex } from "@rjsf/utils";
import { MultiSelectWidget } from "./theme-widgets";
import { defaultHint } from "@/lib/forms/hints";

/**
 * Single choice as a native <select>: labelled by the field's <label for>, keyboard and
 * type-to-find for free (the theme's popover button carries no id, so its label points nowhere).
 * Multiple choice keeps the theme's widget. An optional field can always go back to "—" (unset), and
 * that option names the default the tool uses then ("— (default: normal)").
 */
const VARIANT_SELECTOR = /__(one|any)of_select$/;

export function SelectWidget(props: WidgetProps) {
  const {
    id,
    options,
    value,
    required,
    disabled,
    readonly,
    autofocus,
    onChange,
    onBlur,
    onFocus,
    rawErrors = [],
    multiple,
    placeholder,
    label,
    schema,
  } = props;
  if (multiple) return <MultiSelectWidget {...props} />;
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const index = enumOptionsIndexForValue(value, enumOptions, false);
  const selected = typeof index === "string" ? index : "";
  const hint = defaultHint(schema);
  const decode = (v: string) => (v === "" ? emptyValue : enumOptionsValueForIndex(v, enumOptions, emptyValue));
  return (
    <select
      id={id}
      name={id}
      value={selected}
      required={required}
      disabled={disabled || readonly}
      autoFocus={autofocus}
      // The oneOf/anyOf variant selector has no <label for>: its name is the field's title.
      aria-label={VARIANT_SELECTOR.test(id) ? label : undefined}
      aria-invalid={rawErrors.length > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(decode(e.target.value))}
      onBlur={(e) => onBlur(id, decode(e.target.value))}
      onFocus={(e) => onFocus(id, decode(e.target.value))}
      className="h-9 w-full rounded-md border border-input bg-background px-2.5 text-sm shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive dark:bg-input/30"
    >
      {(!required || selected === "") && <option value="">{placeholder || (required ? "Choose…" : hint ? `— (${hint})` : "—")}</option>}
      {enumOptions.map((o, i) => (
        <option key={i} value={String(i)} disabled={Array.isArray(enumDisabled) && enumDisabled.includes(o.value)}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
