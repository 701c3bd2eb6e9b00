"use client";
import { useEffect, useId, useRef, useState } from "react";
import { BookOpen, Loader2, MessageSquare } from "lucide-react";
import type { BrowsePrompt, BrowseResource, BrowseTemplate, PromptMessage } from "@/lib/servers/browse";
import { expandTemplate, templateVariables } from "@/lib/servers/uri-template";
import type { ResourceContents } from "@/lib/tools/output";
import { Badge } from "@/components/ui/Badge";
import { Card } from "@/components/ui/Card";
import { DisabledReason } from "@/components/ui/DisabledReason";
import { buttonClass } from "@/components/ui/button-styles";
import type { Allowance } from "@/components/ui/permission";
import { reportError } from "@/components/ui/report-error";
import { ContentView } from "@/components/runs/ContentView";
import { ResourceBody } from "@/components/runs/ResourceBody";
import { CompletingInput } from "./CompletingInput";
import { ResourceFollow } from "./ResourceFollow";
import { call, post } from "./studio-call";

const field = "h-8 w-full rounded-md border bg-background px-2";

type Load<T> = { state: "loading" } | { state: "loaded"; value: T } | { state: "failed"; message: string };
type ReadResult = { uri: string } & ({ state: "reading" } | { state: "read"; contents: ResourceContents[] } | { state: "failed"; message: string });
type PromptResult = { name: string } & (
  { state: "getting" } | { state: "got"; description?: string; messages: PromptMessage[]; dropped: number } | { state: "failed"; message: string }
);

function useList<T>(url: string | null, pick: (body: Record<string, unknown>) => T): Load<T> {
  const [load, setLoad] = useState<Load<T>>({ state: "loading" });
  useEffect(() => {
    if (!url) return;
    let live = true;
    call(url)
      .then((r) => live && setLoad(r.ok ? { state: "loaded", value: pick(r.body) } : { state: "failed", message: r.message }))
      .catch(reportError);
    return () => {
      live = false;
    };
    // pick is a module-level function of the caller
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);
  return load;
}

const pickResources = (b: Record<string, unknown>) => ({
  resources: Array.isArray(b.resources) ? (b.resources as BrowseResource[]) : [],
  templates: Array.isArray(b.templates) ? (b.templates as BrowseTemplate[]) : [],
  templatesError: typeof b.templatesError === "string" ? b.templatesError : null,
});
const pickPrompts = (b: Record<string, unknown>) => (Array.isArray(b.prompts) ? (b.prompts as BrowsePrompt[]) : []);

function Failed({ message }: { message: string }) {
  return (
    <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-2 text-destructive">
      {message}
    </p>
  );
}

function Loading() {
  return (
    <p className="flex items-center gap-2 text-muted-foreground">
      <Loader2 className="size-4 animate-spin" aria-hidden /> Asking the server…
    </p>
  );
}

function Facts({ title, name, description, mimeType }: { title?: string; name: string; description?: string; mimeType?: string }) {
  return (
    <div className="min-w-0 flex-1">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{title || name}</span>
        {mimeType && <Badge>{mimeType}</Badge>}
      </div>
      {description && <p className="text-muted-foreground">{description}</p>}
    </div>
  );
}

function TemplateForm({
  template,
  access,
  completeUrl,
  onRead,
}: {
  template: BrowseTemplate;
  access: Allowance;
  completeUrl: string | null;
  onRead: (uri: string) => void;
}) {
  const vars = templateVariables(template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const id = useId();
  let uri = "";
  let problem: string | null = null;
  try {
    uri = expandTemplate(template.uriTemplate, values);
  } catch (e) {
    problem = `The template does not expand: ${(e as Error).message}`;
  }
  const missing = vars.filter((v) => !values[v]);
  return (
    <li className="space-y-2 rounded-md border p-3" data-testid="resource-template">
      <Facts {...template} />
      <code className="block break-all font-mono text-[12px] text-muted-foreground">{template.uriTemplate}</code>
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (access.allowed && !problem) onRead(uri);
        }}
      >
        {vars.map((v) => (
          <label key={v} className="block">
            <span className="text-[12px] font-medium">{v}</span>
            <CompletingInput
              source={completeUrl ? { url: completeUrl, completionRef: { type: "ref/resource", uri: template.uriTemplate } } : null}
              argument={v}
              value={values[v] ?? ""}
              onChange={(x) => setValues((prev) => ({ ...prev, [v]: x }))}
              context={values}
              label={`${template.name}: ${v}`}
              className={field}
            />
          </label>
        ))}
        <p className="break-all text-[12px]">
          URI:{" "}
          <code className="font-mono" data-testid="expanded-uri">
            {uri}
          </code>
        </p>
        {problem && <Failed message={problem} />}
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="submit"
            className={buttonClass.secondary}
            disabled={!access.allowed || !!problem || missing.length > 0}
            aria-describedby={access.reason ? id : undefined}
          >
            <BookOpen className="size-4" aria-hidden /> Read {template.name}
          </button>
          {missing.length > 0 && <span className="text-[12px] text-muted-foreground">Fill in {missing.join(", ")}.</span>}
          {access.reason && <DisabledReason id={id} reason={access.reason} className="max-w-xs" />}
        </div>
      </form>
    </li>
  );
}

function ReadView({ read, follow }: { read: ReadResult | null; follow: { base: string; reread: (uri: string) => void } | null }) {
  if (!read) return <p className="text-muted-foreground">Read a resource or a template to see its contents here.</p>;
  return (
    <div className="space-y-2" data-testid="read-view">
      <p className="break-all">
        <code className="font-mono">{read.uri}</code>
      </p>
      {follow && read.state === "read" && <ResourceFollow key={read.uri} base={follow.base} uri={read.uri} onUpdated={() => follow.reread(read.uri)} />}
      {read.state === "reading" && <Loading />}
      {read.state === "failed" && <Failed message={read.message} />}
      {read.state === "read" &&
        (read.contents.length ? (
          read.contents.map((c, i) => <ResourceBody key={i} resource={c} />)
        ) : (
          <p className="text-muted-foreground">The server returned no contents.</p>
        ))}
    </div>
  );
}

function PromptForm({
  prompt,
  access,
  completeUrl,
  onGet,
}: {
  prompt: BrowsePrompt;
  access: Allowance;
  completeUrl: string | null;
  onGet: (name: string, args: Record<string, string>) => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  const id = useId();
  const missing = prompt.arguments.filter((a) => a.required && !values[a.name]).map((a) => a.name);
  return (
    <li className="space-y-2 rounded-md border p-3" data-testid="prompt">
      <Facts {...prompt} />
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          // Unset optional arguments are not sent.
          const args = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ""));
          if (access.allowed && !missing.length) onGet(prompt.name, args);
        }}
      >
        {prompt.arguments.map((a) => (
          <label key={a.name} className="block">
            <span className="text-[12px] font-medium">
              {a.name}
              {a.required && (
                <span className="text-destructive" title="required">
                  {" "}
                  *
                </span>
              )}
            </span>
            {a.description && <span className="ml-2 text-[12px] text-muted-foreground">{a.description}</span>}
            <CompletingInput
              source={completeUrl ? { url: completeUrl, completionRef: { type: "ref/prompt", name: prompt.name } } : null}
              argument={a.name}
              value={values[a.name] ?? ""}
              onChange={(x) => setValues((prev) => ({ ...prev, [a.name]: x }))}
              context={values}
              label={`${prompt.name}: ${a.name}`}
              className={field}
              required={a.required}
            />
          </label>
        ))}
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="submit"
            className={buttonClass.secondary}
            disabled={!access.allowed || missing.length > 0}
            aria-describedby={access.reason ? id : undefined}
          >
            <MessageSquare className="size-4" aria-hidden /> Get {prompt.name}
          </button>
          {missing.length > 0 && <span className="text-[12px] text-muted-foreground">Required: {missing.join(", ")}.</span>}
          {access.reason && <DisabledReason id={id} reason={access.reason} className="max-w-xs" />}
        </div>
      </form>
    </li>
  );
}

function PromptView({ result, server, access }: { result: PromptResult | null; server: string; access: Allowance }) {
  if (!result) return <p className="text-muted-foreground">Get a prompt to see the messages it returns here.</p>;
  return (
    <div className="space-y-2" data-testid="prompt-view">
      <p className="font-medium">{result.name}</p>
      {result.state === "getting" && <Loading />}
      {result.state === "failed" && <Failed message={result.message} />}
      {result.state === "got" && (
        <>
          {result.description && <p className="text-muted-foreground">{result.description}</p>}
          <ol className="space-y-2">
            {result.messages.map((m, i) => (
              <li key={i} className="rounded-md border p-2" data-testid="prompt-message">
                <Badge tone={m.role === "user" ? "primary" : "neutral"}>{m.role}</Badge>
                <div className="mt-1">
                  <ContentView content={[m.content]} reader={{ server, access }} />
                </div>
              </li>
            ))}
          </ol>
          {result.dropped > 0 && <p className="text-muted-foreground">{result.dropped} message(s) of unknown roles or kinds were left out.</p>}
        </>
      )}
    </div>
  );
}

/**
 * The resources, resource templates and prompts of one MCP server, asked of it when the page
 * opens. Reading and getting need `access` (runner): the server is contacted on the viewer's
 * behalf, and the studio audits it. Everything the server sends is shown as untrusted content.
 */
export function ServerBrowser({
  server,
  hasResources,
  hasPrompts,
  hasCompletions,
  hasSubscriptions,
  access,
}: {
  server: string;
  hasResources: boolean;
  hasPrompts: boolean;
  hasCompletions: boolean;
  hasSubscriptions: boolean;
  access: Allowance;
}) {
  const base = `/api/servers/${encodeURIComponent(server)}`;
  // Suggestions from the server's completion/complete, for those who may use the forms they feed.
  const completeUrl = hasCompletions && access.allowed ? `${base}/complete` : null;
  const resources = useList(hasResources ? `${base}/resources` : null, pickResources);
  const prompts = useList(hasPrompts ? `${base}/prompts` : null, pickPrompts);
  const [read, setRead] = useState<ReadResult | null>(null);
  // The results column: beside the lists on a wide screen (kept in view there), below them on a
  // narrow one, where a read or get scrolls its result into view (the button may be far above it).
  const readRef = useRef<HTMLDivElement>(null);
  const promptRef = useRef<HTMLDivElement>(null);
  const reveal = (el: HTMLDivElement | null) => requestAnimationFrame(() => el?.scrollIntoView({ block: "nearest" }));
  const [prompt, setPrompt] = useState<PromptResult | null>(null);

  const doRead = (uri: string) => {
    setRead({ uri, state: "reading" });
    reveal(readRef.current);
    post(`${base}/resources/read`, { uri })
      .then((r) =>
        setRead(
          r.ok
            ? { uri, state: "read", contents: Array.isArray(r.body.contents) ? (r.body.contents as ResourceContents[]) : [] }
            : { uri, state: "failed", message: r.message },
        ),
      )
      .catch(reportError);
  };
  // A followed resource that changed: read again in place (the contents stay shown meanwhile).
  const reread = (uri: string) => {
    post(`${base}/resources/read`, { uri })
      .then((r) =>
        setRead((cur) =>
          cur?.uri !== uri
            ? cur
            : r.ok
              ? { uri, state: "read", contents: Array.isArray(r.body.contents) ? (r.body.contents as ResourceContents[]) : [] }
              : { uri, state: "failed", message: r.message },
        ),
      )
      .catch(reportError);
  };
  const doGet = (name: string, args: Record<string, string>) => {
    setPrompt({ name, state: "getting" });
    reveal(promptRef.current);
    post(`${base}/prompts/get`, { name, arguments: args })
      .then((r) =>
        setPrompt(
          r.ok
            ? {
                name,
                state: "got",
                description: typeof r.body.description === "string" ? r.body.description : undefined,
                messages: Array.isArray(r.body.messages) ? (r.body.messages as PromptMessage[]) : [],
                dropped: Number(r.body.dropped) || 0,
              }
            : { name, state: "failed", message: r.message },
        ),
      )
      .catch(reportError);
  };

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="space-y-4">
        <Card title="Resources">
          {!hasResources && <p className="text-muted-foreground">This server declares no resources.</p>}
          {hasResources && resources.state === "loading" && <Loading />}
          {resources.state === "failed" && <Failed message={resources.message} />}
          {resources.state === "loaded" &&
            (resources.value.resources.length ? (
              <ul className="space-y-2" aria-label="Resources">
                {resources.value.resources.map((r) => (
                  <li key={r.uri} className="flex flex-wrap items-start gap-2 rounded-md border p-2" data-testid="resource">
                    <div className="min-w-0 flex-1">
                      <Facts {...r} />
                      <code className="block break-all font-mono text-[12px] text-muted-foreground">{r.uri}</code>
                    </div>
                    <button
                      type="button"
                      className={buttonClass.secondary}
                      disabled={!access.allowed}
                      title={access.reason ?? undefined}
                      onClick={() => doRead(r.uri)}
                      aria-label={`Read ${r.uri}`}
                    >
                      <BookOpen className="size-4" aria-hidden /> Read
                    </button>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-muted-foreground">No resources listed.</p>
            ))}
        </Card>
        {resources.state === "loaded" && resources.value.templatesError && (
          <Card title="Resource templates">
            <Failed message={resources.value.templatesError} />
          </Card>
        )}
        {resources.state === "loaded" && resources.value.templates.length > 0 && (
          <Card title="Resource templates">
            <ul className="space-y-2" aria-label="Resource templates">
              {resources.value.templates.map((t) => (
                <TemplateForm key={t.uriTemplate} template={t} access={access} completeUrl={completeUrl} onRead={doRead} />
              ))}
            </ul>
          </Card>
        )}
        <Card title="Prompts">
          {!hasPrompts && <p className="text-muted-foreground">This server declares no prompts.</p>}
          {hasPrompts && prompts.state === "loading" && <Loading />}
          {prompts.state === "failed" && <Failed message={prompts.message} />}
          {prompts.state === "loaded" &&
            (prompts.value.length ? (
              <ul className="space-y-2" aria-label="Prompts">
                {prompts.value.map((p) => (
                  <PromptForm key={p.name} prompt={p} access={access} completeUrl={completeUrl} onGet={doGet} />
                ))}
              </ul>
            ) : (
              <p className="text-muted-foreground">No prompts listed.</p>
            ))}
        </Card>
      </div>
      <div className="space-y-4 lg:sticky lg:top-16 lg:max-h-[calc(100vh-5rem)] lg:self-start lg:overflow-y-auto">
        <div ref={readRef} className="scroll-mt-16">
          <Card title="Resource contents">
            <ReadView read={read} follow={hasSubscriptions && access.allowed ? { base, reread } : null} />
          </Card>
        </div>
        <div ref={promptRef} className="scroll-mt-16">
          <Card title="Prompt messages">
            <PromptView result={prompt} server={server} access={access} />
          </Card>
        </div>
      </div>
    </div>
  );
}
