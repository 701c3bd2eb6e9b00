"use client";
import { forwardRef, useMemo } from "react";
import { withTheme } from "@rjsf/core";
import type CoreForm from "@rjsf/core";
import Templates from "@rjsf/shadcn/lib/Templates/index.js";
import type { RJSFSchema, UiSchema, ErrorSchema, Experimental_DefaultFormStateBehavior } from "@rjsf/utils";
import { InterpretingValidator } from "@/lib/forms/validator";
import { SelectWidget } from "./widgets/SelectWidget";
import { CheckboxWidget } from "./widgets/CheckboxWidget";
import { DomainSelectWidget } from "./widgets/DomainSelectWidget";
import { BaseInputTemplate } from "./templates/BaseInputTemplate";
import { FieldTemplate } from "./templates/FieldTemplate";
import { ObjectFieldTemplate } from "./templates/ObjectFieldTemplate";
import { JsonValueField } from "./fields/JsonValueField";
import { themeWidgets } from "./widgets/theme-widgets";
import type { DomainFormContext } from "./domain-options";

// Not Ajv: the page's CSP forbids the code generation Ajv compiles schemas with (see the class).
const validator = new InterpretingValidator();

// The shadcn theme assembled here rather than imported whole (see theme-widgets).
const Form = withTheme({ templates: Templates, widgets: themeWidgets });

const widgets = { SelectWidget, CheckboxWidget, domain: DomainSelectWidget };
const templates = { BaseInputTemplate, FieldTemplate, ObjectFieldTemplate };
// RJSF renders a schema with no `type` (any JSON value) through FallbackField: edit it as JSON text.
const fields = { FallbackField: JsonValueField };

/**
 * What is sent is what the user set. Only required fields get their defaults (they must be sent
 * anyway, so a required field with a default starts with it); an optional field starts unset and
 * shows its default as a hint. A `const` of a required member (a oneOf discriminator such as
 * `venue.kind`) is filled in, so the chosen branch's data is complete. A required array starts
 * with `minItems` items; an optional one starts empty.
 */
const defaultsBehavior: Experimental_DefaultFormStateBehavior = {
  arrayMinItems: { populate: "requiredOnly" },
  emptyObjectFields: "populateRequiredDefaults",
  constAsDefaults: "always",
  mergeDefaultsIntoFormData: "useFormDataIfPresent",
};

export type FormChange = { formData: unknown; fromField: boolean };

type Props = {
  schema: RJSFSchema;
  formData: unknown;
  /** `fromField`: a person edited a field; false when RJSF re-derived the data itself (defaults, a new schema). */
  onChange(change: FormChange): void;
  extraErrors?: ErrorSchema;
  /** Per-field uiSchema (e.g. the domain widget on option-domain parameters). */
  uiSchema?: UiSchema;
  formContext?: DomainFormContext & { onJsonFieldError?(id: string, error: string | null): void };
  /** Prefix of the fields' ids (default `root`): a second form on the page needs its own. */
  idPrefix?: string;
};

/** The parameter form for a tool's input schema. Submitting is the workbench's job (Run). */
export const ParamForm = forwardRef<CoreForm, Props>(function ParamForm({ schema, formData, onChange, extraErrors, uiSchema, formContext, idPrefix }, ref) {
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
        fields={fields}
        formData={formData}
        formContext={formContext}
        idPrefix={idPrefix}
        onChange={(e, id) => onChange({ formData: e.formData, fromField: id !== undefined })}
        noHtml5Validate
        showErrorList={false}
        extraErrors={extraErrors}
        // Fields an if/then/else (or a switched oneOf branch) no longer shows are dropped, not sent hidden.
        omitExtraData
        liveOmit="onChange"
        experimental_defaultFormStateBehavior={defaultsBehavior}
      />
    </div>
  );
});
