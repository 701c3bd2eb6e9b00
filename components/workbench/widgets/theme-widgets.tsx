"use client";
import { lazy, Suspense, type ComponentType } from "react";
import type { WidgetProps } from "@rjsf/utils";
import CheckboxWidget from "@rjsf/shadcn/lib/CheckboxWidget/index.js";
import TextareaWidget from "@rjsf/shadcn/lib/TextareaWidget/index.js";

// The theme's widgets built on cmdk and Radix (multi-select, radio group, checkbox list, slider)
// are most of its weight and few tools' schemas use them: each is fetched when a form first shows
// one, not with every tool page. (Imported by path: the theme's index pulls in all of them.)
function lazyWidget(load: () => Promise<{ default: ComponentType<WidgetProps> }>): ComponentType<WidgetProps> {
  const Widget = lazy(load);
  return function LazyThemeWidget(props: WidgetProps) {
    return (
      <Suspense fallback={<div className="h-9 animate-pulse rounded-md border bg-muted/40" aria-busy="true" data-testid="widget-loading" />}>
        <Widget {...props} />
      </Suspense>
    );
  };
}

export const MultiSelectWidget = lazyWidget(() => import("@rjsf/shadcn/lib/SelectWidget/index.js"));

/** The theme's widgets, the heavy ones fetched on first use. */
export const themeWidgets = {
  CheckboxWidget,
  TextareaWidget,
  SelectWidget: MultiSelectWidget,
  RadioWidget: lazyWidget(() => import("@rjsf/shadcn/lib/RadioWidget/index.js")),
  CheckboxesWidget: lazyWidget(() => import("@rjsf/shadcn/lib/CheckboxesWidget/index.js")),
  RangeWidget: lazyWidget(() => import("@rjsf/shadcn/lib/RangeWidget/index.js")),
};
