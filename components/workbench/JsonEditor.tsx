"use client";
import { useEffect, useRef, useState } from "react";
import Editor, { type OnMount } from "@monaco-editor/react";
import { monaco } from "./monaco-setup";

type Props = {
  /** The value to show; pushed into the editor only when it differs from what is typed there. */
  value: string;
  onChange(text: string): void;
  /** JSON Schema for completion and squiggles as you type. */
  schema?: object;
  modelPath: string;
  onRun?(): void;
  height?: number | string;
  readOnly?: boolean;
  /** JSONC: comments and trailing commas allowed (for this model only, through its schema). */
  jsonc?: boolean;
  /** The editor's accessible name. */
  label?: string;
  /** The schema's URI; set it to where a `"$schema"` in the text resolves (relative to modelPath) so that one is used. */
  schemaUri?: string;
};

function useDarkMode(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => {
    const el = document.documentElement;
    const update = () => setDark(el.classList.contains("dark"));
    update();
    const obs = new MutationObserver(update);
    obs.observe(el, { attributes: true, attributeFilter: ["class"] });
    return () => obs.disconnect();
  }, []);
  return dark;
}

/** Monaco JSON editor, uncontrolled (a controlled value drops keystrokes), kept in sync by diffing. */
export default function JsonEditor({ value, onChange, schema, modelPath, onRun, height = 360, readOnly, jsonc, schemaUri, label = "JSON editor" }: Props) {
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null);
  const onRunRef = useRef(onRun);
  onRunRef.current = onRun;
  const dark = useDarkMode();

  useEffect(() => {
    const uri = monaco.Uri.parse(modelPath).toString();
    const id = schemaUri ?? `${uri}#schema`;
    const others = (monaco.json.jsonDefaults.diagnosticsOptions.schemas ?? []).filter((s) => s.uri !== id);
    // allowComments/allowTrailingCommas in a schema relax just the models it applies to.
    const effective = jsonc ? { ...(schema ?? {}), allowComments: true, allowTrailingCommas: true } : schema;
    monaco.json.jsonDefaults.setDiagnosticsOptions({
      validate: true,
      allowComments: false,
      enableSchemaRequest: false,
      schemas: effective ? [...others, { uri: id, fileMatch: [uri], schema: effective }] : others,
    });
  }, [schema, modelPath, jsonc, schemaUri]);

  useEffect(() => {
    const ed = editorRef.current;
    if (ed && ed.getValue() !== value) {
      // Only reformat when the editor's JSON means something else, so typing is never disturbed.
      // (Not for JSONC: there comments and layout are content.)
      if (!jsonc) {
        try {
          if (JSON.stringify(JSON.parse(ed.getValue())) === JSON.stringify(JSON.parse(value))) return;
        } catch {
          // one side is not valid JSON yet: fall through and replace the text
        }
      }
      ed.setValue(value);
    }
  }, [value, jsonc]);

  const onMount: OnMount = (ed, m) => {
    editorRef.current = ed;
    ed.addCommand(m.KeyMod.CtrlCmd | m.KeyCode.Enter, () => onRunRef.current?.());
  };

  return (
    <div className="overflow-hidden rounded-md border" data-testid="json-editor">
      <Editor
        height={height}
        defaultLanguage="json"
        path={modelPath}
        defaultValue={value}
        theme={dark ? "vs-dark" : "vs"}
        onMount={onMount}
        onChange={(v) => onChange(v ?? "")}
        options={{
          minimap: { enabled: false },
          fontSize: 12.5,
          lineNumbersMinChars: 3,
          scrollBeyondLastLine: false,
          tabSize: 2,
          automaticLayout: true,
          readOnly,
          renderLineHighlight: "none",
          fixedOverflowWidgets: true,
          ariaLabel: `${label}. Tab indents; press Control+M first to move focus with Tab.`,
        }}
        loading={<div className="p-3 text-muted-foreground">Loading editor…</div>}
      />
      {/* Monaco keeps Tab for indenting; its own key (Ctrl+M) lets Tab leave, so the editor never traps the keyboard. */}
      <p className="border-t bg-muted/40 px-2.5 py-1 text-[11px] text-muted-foreground" data-testid="editor-keys">
        <kbd className="font-mono">Ctrl+M</kbd>: Tab moves focus out of the editor (again: Tab indents).
      </p>
    </div>
  );
}
