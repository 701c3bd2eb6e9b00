"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { RefreshCw } from "lucide-react";
import type { ToolOptions } from "@/lib/domains/client-types";
import type { ToolSpec } from "@/lib/tools/spec";
import type { DomainFormContext } from "./domain-options";
import { reportError } from "@/components/ui/report-error";

export interface DomainState {
  enabled: boolean;
  formContext: DomainFormContext;
  refresh(): void;
}

/**
 * Live choices for a tool's option domains: fetched for the agent and the arguments so far
 * (so `target` follows `channel`), again on refresh, and whenever the config file changes.
 */
export function useDomainOptions(tool: ToolSpec, agent: string | null, args: unknown): DomainState {
  const enabled = Object.keys(tool.paramDomains ?? {}).length > 0;
  const [data, setData] = useState<ToolOptions | null>(null);
  const [loading, setLoading] = useState(enabled);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const seq = useRef(0);
  const argsKey = JSON.stringify(args ?? {});

  const refresh = useCallback(() => setTick((t) => t + 1), []);

  useEffect(() => {
    if (!enabled) return;
    const mine = ++seq.current;
    const load = async () => {
      setLoading(true);
      try {
        const q = new URLSearchParams({ args: argsKey, ...(agent ? { agent } : {}) });
        const res = await fetch(`/api/tools/${encodeURIComponent(tool.name)}/options?${q}`, { cache: "no-store" });
        const body = await res.json();
        if (mine !== seq.current) return; // a newer request is on its way
        if (!res.ok) throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
        setData(body);
        setError(null);
      } catch (e) {
        if (mine === seq.current) setError((e as Error).message);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    };
    const timer = setTimeout(() => {
      load().catch(reportError);
    }, 150);
    return () => clearTimeout(timer);
  }, [enabled, tool.name, agent, argsKey, tick]);

  // The config file changed on disk (or in Settings): resolve again.
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    const es = new EventSource("/api/config/events");
    es.addEventListener("config", refresh);
    return () => es.close();
  }, [enabled, refresh]);

  const formContext = useMemo(() => ({ domainOptions: data, loading, error }), [data, loading, error]);
  return { enabled, formContext, refresh };
}

/** The agent the choices are for, when a domain depends on it, and a refresh control. */
export function AgentPicker({ state, agent, onAgent }: { state: DomainState; agent: string | null; onAgent(a: string | null): void }) {
  const data = state.formContext.domainOptions;
  return (
    <div className="mb-3 flex flex-wrap items-center gap-2 rounded-md border bg-muted/40 px-2.5 py-1.5 text-[13px]">
      {data?.agentDependent && (
        <label className="flex items-center gap-1.5">
          <span className="text-muted-foreground">Agent</span>
          <select
            aria-label="Agent"
            value={agent ?? ""}
            onChange={(e) => onAgent(e.target.value || null)}
            className="h-7 max-w-56 truncate rounded-md border bg-background px-1.5"
          >
            <option value="">default{data.agent && !agent ? ` (${data.agent})` : ""}</option>
            {data.agents.map((a) => (
              <option key={a.value} value={a.value}>
                {a.value}
                {a.hint ? ` — ${a.hint}` : ""}
              </option>
            ))}
          </select>
        </label>
      )}
      <span className="text-muted-foreground">Choices come live from the runtime config.</span>
      <button
        type="button"
        onClick={state.refresh}
        className="ml-auto inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-muted-foreground hover:bg-accent hover:text-foreground"
        aria-label="Refresh choices"
        title="Resolve the choices again"
      >
        <RefreshCw className={`size-3.5 ${state.formContext.loading ? "animate-spin" : ""}`} /> Refresh
      </button>
    </div>
  );
}
