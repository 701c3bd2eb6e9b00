"use client";
import { useEffect, useRef } from "react";
import type { WidgetProps } from "@rjsf/utils";
import { ariaDescribedByIds, descriptionId, getTemplate } from "@rjsf/utils";
import ThemeCheckboxWidget from "@rjsf/shadcn/lib/CheckboxWidget/index.js";
import { defaultHint } from "@/lib/forms/hints";

/**
 * An optional boolean has three states, not two: unset (not sent; the tool applies its default),
 * on, off. Unset shows as an indeterminate box with "not set (default: on)"; a Clear button
 * returns a set box to unset. A required boolean keeps the theme's plain checkbox.
 */
export function CheckboxWidget(props: WidgetProps) {
  const { id, htmlName, value, required, disabled, readonly, autofocus, label, hideLabel, schema, uiSchema, options, registry, onChange, onBlur, onFocus } =
    props;
  const box = useRef<HTMLInputElement>(null);
  const unset = value === undefined || value === null;
  useEffect(() => {
    if (box.current) box.current.indeterminate = unset;
  }, [unset]);
  if (required) return <ThemeCheckboxWidget {...props} />;
  const hint = defaultHint(schema);
  const description = options.description || schema.description;
  const DescriptionFieldTemplate = getTemplate("DescriptionFieldTemplate", registry, options);
  return (
    <div aria-describedby={ariaDescribedByIds(id)}>
      {!hideLabel && description && (
        <DescriptionFieldTemplate id={descriptionId(id)} description={description} schema={schema} uiSchema={uiSchema} registry={registry} />
      )}
      <div className="my-2 flex flex-wrap items-center gap-2">
        <input
          ref={box}
          type="checkbox"
          id={id}
          name={htmlName || id}
          checked={value === true}
          disabled={disabled || readonly}
          autoFocus={autofocus}
          onChange={(e) => onChange(e.target.checked)}
          onBlur={() => onBlur(id, value)}
          onFocus={() => onFocus(id, value)}
          aria-describedby={unset ? `${id}__unset` : undefined}
          className="size-4 shrink-0 accent-primary"
        />
        {!hideLabel && label && (
          <label htmlFor={id} className="text-sm leading-tight font-medium">
            {label}
          </label>
        )}
        {unset ? (
          <span id={`${id}__unset`} className="text-xs text-muted-foreground" data-testid="unset-hint">
            not set{hint ? ` (${hint})` : ""}
          </span>
        ) : (
          !disabled &&
          !readonly && (
            <button
              type="button"
              onClick={() => onChange(undefined)}
              className="rounded px-1.5 text-xs text-primary underline-offset-2 hover:underline"
              aria-label={`Clear ${label || "value"} (back to not set)`}
            >
              Clear
            </button>
          )
        )}
      </div>
    </div>
  );
}
