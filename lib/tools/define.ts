import type { FromSchema, JSONSchema } from "json-schema-to-ts";
import type { JsonSchema, ToolAnnotations, ToolIcon, ToolSpec } from "./spec";
import type { ToolOutput } from "./output";
import type { RuntimeConfig } from "../config/schema";
import type { DomainResolver } from "../domains/types";
import type { InputRequest, InputResult } from "../execution/pending-input";

export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/** The MCP log levels (RFC 5424 severities), least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A log message a server sent during a call (MCP `notifications/message`), checked and bounded. */
export interface LogMessage {
  level: LogLevel;
  logger?: string;
  data: unknown;
}

/** What a running tool gets besides its arguments. */
export interface ToolContext {
  /** Aborted on timeout or cancel: long work must watch it. */
  signal: AbortSignal;
  progress(update: ProgressUpdate): void;
  runId: string;
  actor: string;
  /** The agent the call is made for (checked to exist), when the config has agents. */
  agent?: string;
  /** The timeout the studio enforces for this call (it aborts `signal` then). */
  timeoutMs?: number;
  /**
   * Asks the run's caller for input on behalf of a server (MCP elicitation, sampling) and waits
   * for the answer; the run's timeout is paused meanwhile. Resolves with null as the answer when
   * nobody answered in time or the run ended first. Absent where no one could answer.
   * `params`: the server's request as it came; when the call's MCP client answers it (relayed,
   * see `asks`), the result carries that client's answer as `relayed`, to hand back unchanged.
   */
  requestInput?(request: InputRequest, opts: { server: string; signal?: AbortSignal; params?: Record<string, unknown> }): Promise<InputResult>;
  /** Which kinds of request `requestInput` takes (a relaying MCP client declared only some); all when absent. */
  asks?: { elicitation: boolean; sampling: boolean };
  /**
   * Where a server's log messages during the call go (the /api/mcp client that made it), from
   * `level` up. Absent when nobody listens: servers are then not asked for them.
   */
  logs?: { level: LogLevel; send(message: LogMessage): void };
}

/** A tool the registry can call: its spec and how to invoke it. */
export interface RegisteredTool {
  spec: ToolSpec;
  invoke(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutput>;
  /** Option domains this tool resolves itself (usable by any tool's paramDomains). */
  domains?: Record<string, DomainResolver>;
  /** Trigger phrases computed from the live config on each listing, added to the static ones. */
  liveTriggers?(config: RuntimeConfig): string[];
}

export interface BuiltinToolDefinition<S extends JSONSchema> {
  name: string;
  title?: string;
  description: string;
  inputSchema: S;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: ToolIcon[];
  _meta?: Record<string, unknown>;
  paramDomains?: Record<string, string>;
  invocationTriggers?: string[];
  timeoutMs?: number;
  domains?: Record<string, DomainResolver>;
  liveTriggers?(config: RuntimeConfig): string[];
  /** Arguments arrive already validated against inputSchema, so their type follows from it
   *  (NoInfer: inferring S back from FromSchema<S> sends the compiler into infinite depth). */
  run(args: NoInfer<FromSchema<S>>, ctx: ToolContext): Promise<ToolOutput>;
}

/**
 * Defines a built-in tool. Write the schemas `as const` so the arguments of `run`
 * are typed from the input schema.
 */
export function defineTool<const S extends JSONSchema>(def: BuiltinToolDefinition<S>): RegisteredTool {
  const { run, inputSchema, outputSchema, domains, liveTriggers, ...rest } = def;
  const spec: ToolSpec = {
    ...rest,
    inputSchema: inputSchema as JsonSchema,
    ...(outputSchema ? { outputSchema } : {}),
    source: { kind: "builtin", id: "builtin" },
  };
  // Widened on purpose: instantiating FromSchema<S> here is too deep for the compiler.
  // eslint-disable-next-line no-restricted-syntax -- comparing FromSchema<S> with the registry's signature is too deep to check
  const call = run as unknown as RegisteredTool["invoke"];
  return { spec, invoke: (args, ctx) => call(args, ctx), domains, liveTriggers };
}
