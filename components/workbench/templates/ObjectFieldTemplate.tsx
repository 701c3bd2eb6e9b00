"use client";
import type { ObjectFieldTemplateProps } from "@rjsf/utils";
import { getUiOptions } from "@rjsf/utils";
import Templates from "@rjsf/shadcn/lib/Templates/index.js";
import { itemLabel } from "@/lib/forms/hints";

const ThemeObjectFieldTemplate = Templates.ObjectFieldTemplate!;

/** The theme's object, with an object in an array titled by its position ("Person 1", "Person 2"). */
export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const title = props.title ? (itemLabel(props.fieldPathId.path, getUiOptions(props.uiSchema).title ?? props.schema.title) ?? props.title) : props.title;
  return <ThemeObjectFieldTemplate {...props} title={title} />;
}
