"use client";
import { useEffect, useRef } from "react";
import type { BaseInputTemplateProps } from "@rjsf/utils";
import Templates from "@rjsf/shadcn/lib/Templates/index.js";
import { defaultHint } from "@/lib/forms/hints";

const ThemeInput = Templates.BaseInputTemplate!;

/**
 * The theme's input, plus what it leaves out on a field with errors: `aria-invalid` (a screen reader
 * says "invalid" with the error it reads through aria-describedby) and a focus ring (the theme sets
 * ring-0 there, so the field focus moves to after a rejected run would show no focus at all).
 * An optional field starts unset: its schema default is a placeholder ("default: 60"), not a value.
 * A `const` (a oneOf discriminator such as `kind`) is fixed by the chosen branch: read-only.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const box = useRef<HTMLDivElement>(null);
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  useEffect(() => {
    const input = box.current?.querySelector("input");
    if (invalid) input?.setAttribute("aria-invalid", "true");
    else input?.removeAttribute("aria-invalid");
  }, [invalid]);
  const fixed = props.schema.const !== undefined;
  const placeholder = props.placeholder || (fixed ? undefined : defaultHint(props.schema)) || undefined;
  return (
    <div ref={box} className="contents">
      <ThemeInput
        {...props}
        placeholder={placeholder}
        readonly={props.readonly || fixed}
        className={`${props.className ?? ""} ${fixed ? "bg-muted text-muted-foreground" : ""} ${invalid ? "focus-visible:ring-[3px] focus-visible:ring-destructive/50" : ""}`}
      />
    </div>
  );
}
