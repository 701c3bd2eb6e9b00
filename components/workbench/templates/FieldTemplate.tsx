"use client";
import type { FieldTemplateProps } from "@rjsf/utils";
import { getUiOptions } from "@rjsf/utils";
import Templates from "@rjsf/shadcn/lib/Templates/index.js";
import { itemLabel } from "@/lib/forms/hints";

const ThemeFieldTemplate = Templates.FieldTemplate!;

/** The theme's field, with array items labelled "Tag 1" / "Item 2" instead of RJSF's "Tags-1". */
export function FieldTemplate(props: FieldTemplateProps) {
  const label = itemLabel(props.fieldPathId.path, getUiOptions(props.uiSchema).title ?? props.schema.title) ?? props.label;
  return <ThemeFieldTemplate {...props} label={label} />;
}
