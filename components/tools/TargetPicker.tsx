"use client";
import { useId } from "react";
import { TARGET_LABELS, TARGETS, type Target } from "@/lib/model-view/types";

/** The provider a model view is shown for (the tool page's model view, the run page's). */
export function TargetPicker({
  value,
  onChange,
  testId,
  labelClassName,
}: {
  value: Target;
  onChange: (t: Target) => void;
  testId: string;
  labelClassName: string;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className={labelClassName}>
        Provider
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value as Target)}
        className="rounded-md border bg-background px-2 py-1 text-[13px]"
        data-testid={testId}
      >
        {TARGETS.map((t) => (
          <option key={t} value={t}>
            {TARGET_LABELS[t]}
          </option>
        ))}
      </select>
    </>
  );
}
