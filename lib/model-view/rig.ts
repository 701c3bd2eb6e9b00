/**
 * Rig (Rust): `ToolDefinition { name: String, description: String, parameters: serde_json::Value }`,
 * what a Rig `Tool::definition` returns and Rig hands to the provider it calls
 * (https://docs.rs/rig-core/latest/rig/completion/request/struct.ToolDefinition.html). The name
 * and schema go on unchanged (the provider's own rules then apply); `description` is a String,
 * so an absent one is "". Pure.
 */
import type { Converted, ConvertOptions, JsonSchema } from "./types";

export const RIG_DOC = "https://docs.rs/rig-core/latest/rig/completion/request/struct.ToolDefinition.html";

export function toRig(spec: { description?: string; inputSchema: JsonSchema }, opts: ConvertOptions): Converted {
  return {
    definition: { name: opts.name, description: spec.description ?? "", parameters: spec.inputSchema },
    strict: false,
    ...(opts.strict ? { strictReason: "Rig's ToolDefinition has no strict mode (the provider it calls may)." } : {}),
    lint: [],
  };
}
