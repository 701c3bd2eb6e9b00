"use client";
import { forwardRef } from "react";
import Form from "@rjsf/shadcn";
import type CoreForm from "@rjsf/core";
import type { RJSFSchema, UiSchema, ErrorSchema } from "@rjsf/utils";
import { customizeValidator } from "@rjsf/validator-ajv8";
import Ajv2020 from "ajv/dist/2020";
import { SelectWidget } from "./widgets/SelectWidget";

// Tool schemas are JSON Schema 2020-12 unless they say otherwise; strict off for vendor keywords.
const validator = customizeValidator({ AjvClass: Ajv2020, ajvOptionsOverrides: { strict: false } });

const widgets = { SelectWidget };

const uiSchema: UiSchema = {
  "ui:submitButtonOptions": { norender: true },
};

type Props = {
  schema: RJSFSchema;
  formData: unknown;
  onChange(data: unknown): void;
  extraErrors?: ErrorSchema;
};

/** The parameter form for a tool's input schema. Submitting is the workbench's job (Run). */
export const ParamForm = forwardRef<CoreForm, Props>(function ParamForm({ schema, formData, onChange, extraErrors }, ref) {
  return (
    <div className="param-form" data-testid="param-form">
      <Form
        ref={ref}
        schema={schema}
        uiSchema={uiSchema}
        validator={validator}
        widgets={widgets}
        formData={formData}
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
