"use client";
import { forwardRef, useMemo } from "react";
import Form from "@rjsf/shadcn";
import type CoreForm from "@rjsf/core";
import type { RJSFSchema, UiSchema, ErrorSchema } from "@rjsf/utils";
import { customizeValidator } from "@rjsf/validator-ajv8";
import Ajv2020 from "ajv/dist/2020";
import { SelectWidget } from "./widgets/SelectWidget";
import { DomainSelectWidget } from "./widgets/DomainSelectWidget";
import { BaseInputTemplate } from "./templates/BaseInputTemplate";
import type { DomainFormContext } from "./domain-options";

// Tool schemas are JSON Schema 2020-12 unless they say otherwise; strict off for vendor keywords.
const validator = customizeValidator({ AjvClass: Ajv2020, ajvOptionsOverrides: { strict: false } });

const widgets = { SelectWidget, domain: DomainSelectWidget };
const templates = { BaseInputTemplate };

type Props = {
  schema: RJSFSchema;
  formData: unknown;
  onChange(data: unknown): void;
  extraErrors?: ErrorSchema;
  /** Per-field uiSchema (e.g. the domain widget on option-domain parameters). */
  uiSchema?: UiSchema;
  formContext?: DomainFormContext;
};

/** The parameter form for a tool's input schema. Submitting is the workbench's job (Run). */
export const ParamForm = forwardRef<CoreForm, Props>(function ParamForm({ schema, formData, onChange, extraErrors, uiSchema, formContext }, ref) {
  const ui = useMemo<UiSchema>(() => ({ ...uiSchema, "ui:submitButtonOptions": { norender: true } }), [uiSchema]);
  return (
    <div className="param-form" data-testid="param-form">
      <Form
        ref={ref}
        schema={schema}
        uiSchema={ui}
        validator={validator}
        widgets={widgets}
        templates={templates}
        formData={formData}
        formContext={formContext}
        onChange={(e) => onChange(e.formData)}
        noHtml5Validate
        showErrorList={false}
        extraErrors={extraErrors}
        experimental_defaultFormStateBehavior={{
          arrayMinItems: { populate: "requiredOnly" },
          emptyObjectFields: "skipEmptyDefaults",
        }}
      />
    </div>
  );
});
