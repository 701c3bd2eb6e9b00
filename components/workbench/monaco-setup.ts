"use client";
// Serves Monaco from the local package: @monaco-editor/react would otherwise fetch it from a CDN,
// which fails offline and on these machines.
import * as monaco from "monaco-editor";
import { loader } from "@monaco-editor/react";

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

self.MonacoEnvironment = {
  getWorker(_id, label) {
    if (label === "json") {
      return new Worker(new URL("monaco-editor/languages/features/json/json.worker", import.meta.url), { type: "module" });
    }
    return new Worker(new URL("monaco-editor/editor/editor.worker", import.meta.url), { type: "module" });
  },
};

loader.config({ monaco });

export { monaco };
