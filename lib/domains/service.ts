import type { RuntimeConfig } from "../config/schema";
import type { RegisteredTool } from "../tools/define";
import type { FieldError } from "../tools/errors";
import type { ToolSpec } from "../tools/spec";
import { AGENT_DOMAINS, BUILTIN_DOMAINS, customList } from "./builtin-domains";
import { findOccurrences } from "./paths";
import { DomainError, type DomainContext, type DomainOption, type DomainResolver } from "./types";

export interface DomainServiceDeps {
  /** The current runtime config: read on every call, never cached here. */
  config(): RuntimeConfig;
  /** Every registered tool (for tool_names and for domains a tool registers itself). */
  tools(): Promise<RegisteredTool[]>;
}

export interface ParamOptions {
  path: string;
  domain: string;
  /** Choices for a value not yet in the arguments (e.g. a new array item). */
  options: DomainOption[];
  /** Choices for each place the parameter occurs in the arguments (they can differ by siblings). */
  occurrences: { pointer: string; options: DomainOption[] }[];
}

export interface ToolOptions {
  /** The agent the choices were resolved for (null when the config has no agents). */
  agent: string | null;
  /** True when some domain of this tool depends on the agent. */
  agentDependent: boolean;
  agents: DomainOption[];
  params: ParamOptions[];
}

const MAX_LISTED = 20;

/** Resolves option domains from the live config, and re-checks argument values against them. */
export class DomainService {
  constructor(private readonly deps: DomainServiceDeps) {}

  currentConfig(): RuntimeConfig {
    return this.deps.config();
  }

  /** The requested agent (which must exist), else the default agent, else the first one. */
  resolveAgent(config: RuntimeConfig, requested?: string | null): string | undefined {
    if (requested) {
      if (!config.agents.some((a) => a.alias === requested)) {
        throw new DomainError(`Unknown agent "${requested}". Configured agents: ${config.agents.map((a) => a.alias).join(", ") || "none"}.`);
      }
      return requested;
    }
    return config.defaultAgent ?? config.agents[0]?.alias;
  }

  private async resolver(domain: string): Promise<DomainResolver> {
    const builtin = BUILTIN_DOMAINS[domain];
    if (builtin) return builtin;
    if (domain.startsWith("custom:")) {
      const list = domain.slice("custom:".length);
      return (ctx) => {
        const options = customList(ctx, list);
        if (!options) throw new DomainError(`Unknown custom list "${list}". Lists in the config: ${Object.keys(ctx.config.lists).join(", ") || "none"}.`);
        return options;
      };
    }
    for (const tool of await this.deps.tools()) {
      const own = tool.domains?.[domain];
      if (own) return own;
    }
    throw new DomainError(`Unknown option domain "${domain}". Known domains: ${(await this.knownDomains()).join(", ")}.`);
  }

  async knownDomains(): Promise<string[]> {
    const own = (await this.deps.tools()).flatMap((t) => Object.keys(t.domains ?? {}));
    const lists = Object.keys(this.deps.config().lists).map((l) => `custom:${l}`);
    return [...new Set([...Object.keys(BUILTIN_DOMAINS), ...own, ...lists])].sort();
  }

  private context(config: RuntimeConfig, agent: string | undefined, args: Record<string, unknown>, siblings: Record<string, unknown>): DomainContext {
    return { config, agent, args, siblings, tools: async () => (await this.deps.tools()).map((t) => t.spec) };
  }

  /** One domain's choices: POST /api/tools/param-options. */
  async resolve(
    domain: string,
    opts: { agent?: string | null; args?: Record<string, unknown> } = {},
  ): Promise<{ agent: string | null; options: DomainOption[] }> {
    const config = this.deps.config();
    const agent = this.resolveAgent(config, opts.agent);
    const resolver = await this.resolver(domain);
    const args = opts.args ?? {};
    return { agent: agent ?? null, options: await resolver(this.context(config, agent, args, args)) };
  }

  /** Every domain parameter of one tool, for its form. */
  async resolveTool(spec: ToolSpec, opts: { agent?: string | null; args?: Record<string, unknown> } = {}): Promise<ToolOptions> {
    const config = this.deps.config();
    const agent = this.resolveAgent(config, opts.agent);
    const args = opts.args ?? {};
    const params: ParamOptions[] = [];
    for (const [path, domain] of Object.entries(spec.paramDomains ?? {})) {
      const resolver = await this.resolver(domain);
      const occurrences = [];
      for (const occ of findOccurrences(args, path)) {
        occurrences.push({ pointer: occ.pointer, options: await resolver(this.context(config, agent, args, occ.parent)) });
      }
      params.push({ path, domain, options: await resolver(this.context(config, agent, args, {})), occurrences });
    }
    return {
      agent: agent ?? null,
      agentDependent: Object.values(spec.paramDomains ?? {}).some((d) => AGENT_DOMAINS.has(d)),
      agents: await BUILTIN_DOMAINS.agent_aliases!(this.context(config, agent, args, {})),
      params,
    };
  }

  /**
   * The server-side re-check at run time: every domain value must be a current, enabled choice.
   * Returns one field error per bad value, naming the valid choices.
   */
  async check(spec: ToolSpec, args: Record<string, unknown>, requestedAgent?: string | null): Promise<FieldError[]> {
    if (!spec.paramDomains || !Object.keys(spec.paramDomains).length) return [];
    const config = this.deps.config();
    let agent: string | undefined;
    try {
      agent = this.resolveAgent(config, requestedAgent);
    } catch (err) {
      return [{ path: "", message: (err as Error).message }];
    }
    const errors: FieldError[] = [];
    for (const [path, domain] of Object.entries(spec.paramDomains)) {
      const resolver = await this.resolver(domain);
      for (const occ of findOccurrences(args, path)) {
        if (occ.value === undefined) continue;
        const values = Array.isArray(occ.value) ? occ.value.map((v, i) => [`${occ.pointer}/${i}`, v] as const) : [[occ.pointer, occ.value] as const];
        const options = await resolver(this.context(config, agent, args, occ.parent));
        for (const [pointer, value] of values) {
          const hit = options.find((o) => o.value === value);
          if (hit && !hit.disabled) continue;
          const valid = options.filter((o) => !o.disabled).map((o) => o.value);
          const listed = valid.slice(0, MAX_LISTED).join(", ") + (valid.length > MAX_LISTED ? `, … (${valid.length - MAX_LISTED} more)` : "");
          const why = hit ? "is disabled" : "is not a valid choice";
          errors.push({
            path: pointer,
            message: `${JSON.stringify(value)} ${why} for ${domain}${agent ? ` (agent ${agent})` : ""}; valid choices: ${listed || "none"}`,
          });
        }
      }
    }
    return errors;
  }
}

export { DomainError };
