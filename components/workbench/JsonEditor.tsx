"use client";
import { useEffect, useRef, useState } from "react";
import Editor, { type OnMount } from "@monaco-editor/react";
import { monaco } from "./monaco-setup";

export type JsonEditorProps = {
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
  /**
   * Problems the server found (1-based line and column): squiggled, their lines highlighted, the
   * first one scrolled into view. A new array (even empty) replaces the previous ones.
   */
  problems?: readonly EditorProblem[];
};

export interface EditorProblem {
  line: number;
  column: number;
  message: string;
}

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
export default function JsonEditor({
  value,
  onChange,
  schema,
  modelPath,
  onRun,
  height = 360,
  readOnly,
  jsonc,
  schemaUri,
  label = "JSON editor",
  problems,
}: JsonEditorProps) {
  const editorRef = useRef<Parameters<OnMount>[0] | null>(null);
  const [mounted, setMounted] = useState(false);
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

  // The texts this editor reported that have not come back as `value` yet. One coming back is our
  // own change, maybe a few keystrokes late (renders lag fast typing): writing it into the editor
  // would drop what was typed since and move the cursor to the start. Echoes are consumed in order,
  // so a later value set from outside (Revert) is written even if the text was typed before.
  const emitted = useRef<string[]>([]);

  useEffect(() => {
    const ed = editorRef.current;
    const echo = emitted.current.indexOf(value);
    if (echo >= 0) {
      emitted.current = emitted.current.slice(echo + 1);
      return;
    }
    emitted.current = [];
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

  useEffect(() => {
    const ed = editorRef.current;
    const model = ed?.getModel();
    if (!ed || !model || !problems) return;
    const valid = problems.filter((p) => p.line >= 1 && p.line <= model.getLineCount());
    monaco.editor.setModelMarkers(
      model,
      "studio-save",
      valid.map((p) => ({
        severity: monaco.MarkerSeverity.Error,
        message: p.message,
        startLineNumber: p.line,
        startColumn: Math.max(1, p.column),
        endLineNumber: p.line,
        endColumn: model.getLineMaxColumn(p.line),
      })),
    );
    const lines = ed.createDecorationsCollection(
      valid.map((p) => ({
        range: new monaco.Range(p.line, 1, p.line, 1),
        options: { isWholeLine: true, className: "studio-error-line", linesDecorationsClassName: "studio-error-gutter" },
      })),
    );
    if (valid[0]) ed.revealLineInCenterIfOutsideViewport(valid[0].line);
    return () => lines.clear();
  }, [problems, mounted]);

  const onMount: OnMount = (ed, m) => {
    editorRef.current = ed;
    setMounted(true);
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
        onChange={(v) => {
          emitted.current = [...emitted.current.slice(-49), v ?? ""];
          onChange(v ?? "");
        }}
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
