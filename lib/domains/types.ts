import { StudioError } from "../errors/errors";
import type { RuntimeConfig } from "../config/schema";
import type { ToolSpec } from "../tools/spec";

/** One choice of an option domain (zeroclaw's gateway uses this exact shape). */
export interface DomainOption {
  value: string;
  label?: string;
  hint?: string;
  group?: string;
  disabled?: boolean;
}

/** What a resolver sees: the live config, the agent, and the arguments as filled so far. */
export interface DomainContext {
  config: RuntimeConfig;
  /** The agent the choices are for (already checked to exist), if the config has any. */
  agent?: string;
  /** All arguments so far (partial while a form is being filled). */
  args: Record<string, unknown>;
  /** The object holding the parameter being resolved (its siblings), e.g. `channel` for `target`. */
  siblings: Record<string, unknown>;
  /** Every registered tool, for domains over tools. */
  tools(): Promise<ToolSpec[]>;
}

export type DomainResolver = (ctx: DomainContext) => DomainOption[] | Promise<DomainOption[]>;

/** A domain id or agent that does not exist: a client error, with the valid names. */
export class DomainError extends StudioError {
  static override readonly tag: string = "DomainError";
  constructor(message: string) {
    super("bad_request", message);
  }
}
