"use client";
import { useEffect, useRef } from "react";
import type { BaseInputTemplateProps } from "@rjsf/utils";
import { Templates } from "@rjsf/shadcn";

const ThemeInput = Templates.BaseInputTemplate!;

/**
 * The theme's input, plus what it leaves out on a field with errors: `aria-invalid` (a screen reader
 * says "invalid" with the error it reads through aria-describedby) and a focus ring (the theme sets
 * ring-0 there, so the field focus moves to after a rejected run would show no focus at all).
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const box = useRef<HTMLDivElement>(null);
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  useEffect(() => {
    const input = box.current?.querySelector("input");
    if (invalid) input?.setAttribute("aria-invalid", "true");
    else input?.removeAttribute("aria-invalid");
  }, [invalid]);
  return (
    <div ref={box} className="contents">
      <ThemeInput {...props} className={`${props.className ?? ""} ${invalid ? "focus-visible:ring-[3px] focus-visible:ring-destructive/50" : ""}`} />
    </div>
  );
}
