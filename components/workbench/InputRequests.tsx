"use client";
import { useState } from "react";
import type { ErrorSchema, RJSFSchema } from "@rjsf/utils";
import { Check, ExternalLink, MessageSquareText, Send, X } from "lucide-react";
import { pruneUnset } from "@/lib/forms/prune";
import type { InputAnswer, PendingInputView } from "@/lib/execution/pending-input";
import type { FieldError } from "@/lib/tools/errors";
import { safeHref } from "@/components/runs/media";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";
import { ParamForm } from "./ParamForm";

/** How a request for input ended, as the run panel says it. */
export type ResolvedInput = { inputId: string; outcome: "answered" | "timeout" | "cancelled"; action?: string };

type Props = {
  runId: string;
  inputs: PendingInputView[];
  resolved: ResolvedInput[];
};

/** Server field errors (JSON pointers under /content) to RJSF's error tree. */
function contentErrors(details: FieldError[] | undefined): ErrorSchema | undefined {
  if (!details?.length) return undefined;
  const root: Record<string, unknown> = {};
  for (const d of details) {
    let node = root;
    for (const seg of d.path.split("/").slice(2)) node = (node[seg] ??= {}) as Record<string, unknown>;
    ((node.__errors ??= []) as string[]).push(d.message);
  }
  return root as ErrorSchema;
}

type Sent = { error?: string; fields?: FieldError[] };

/** Posts an answer to POST /api/runs/{id}/input; the refusal's message and field errors otherwise. */
async function sendAnswer(runId: string, inputId: string, answer: InputAnswer): Promise<Sent> {
  try {
    const res = await fetch(`/api/runs/${runId}/input`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ inputId, ...answer }),
    });
    if (res.ok) return {};
    const body = await res.json().catch(() => null);
    return { error: body?.error?.message ?? `The studio answered ${res.status}.`, fields: body?.error?.details };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

const OUTCOME_TEXT: Record<ResolvedInput["outcome"], string> = {
  answered: "Answered",
  timeout: "Nobody answered in time: the server was told the request was cancelled",
  cancelled: "The run ended before the request was answered",
};

/**
 * A server's requests for input during a run, in the run's panel: a form (RJSF, from the
 * requested schema) with accept, decline and cancel; a link the person must agree to open (URL
 * mode, http(s) only); a sampling request's messages with a reply to write and approve. Every
 * text came from the server: React escapes it, nothing is rendered as HTML.
 */
export function InputRequests({ runId, inputs, resolved }: Props) {
  return (
    <div className="basis-full space-y-3" data-testid="input-requests">
      {inputs.map((input) => (
        <section
          key={input.id}
          className="rounded-md border border-primary/40 bg-primary/5 p-3"
          data-testid="input-request"
          data-kind={input.kind}
          aria-label={`Request for input from ${input.server}`}
        >
          <p className="mb-2 flex items-center gap-1.5 text-[12px] font-medium uppercase tracking-wide text-primary">
            <MessageSquareText className="size-3.5" aria-hidden />
            {input.kind === "sampling" ? "Sampling request" : input.mode === "url" ? "Asks you to open a link" : "Asks for input"} · server{" "}
            <span className="font-mono normal-case">{input.server}</span>
            <span className="ml-auto font-normal normal-case text-muted-foreground">answer by {new Date(input.expiresAt).toLocaleTimeString()}</span>
          </p>
          {input.kind === "sampling" ? (
            <SamplingRequest runId={runId} input={input} />
          ) : input.mode === "url" ? (
            <UrlRequest runId={runId} input={input} />
          ) : (
            <FormRequest runId={runId} input={input} />
          )}
        </section>
      ))}
      {resolved.map((r) => (
        <p key={r.inputId} role="status" className="text-[12px] text-muted-foreground" data-testid="input-resolved" data-outcome={r.outcome}>
          Request for input: {OUTCOME_TEXT[r.outcome]}
          {r.outcome === "answered" && r.action ? ` (${r.action})` : ""}.
        </p>
      ))}
    </div>
  );
}

type Narrow<K extends PendingInputView["kind"], M = unknown> = Extract<PendingInputView, { kind: K } & (M extends string ? { mode: M } : unknown)>;

function useAnswer(runId: string, inputId: string) {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<Sent>({});
  const answer = async (a: InputAnswer) => {
    setBusy(true);
    const r = await sendAnswer(runId, inputId, a);
    setSent(r);
    // On success the request leaves the panel (its input_resolved event); on a refusal it stays, with why.
    setBusy(false);
  };
  return { busy, sent, answer };
}

/** An elicitation's other two answers: decline (the person says no) and cancel (dismissed without a choice). */
function DeclineOrCancel({ busy, answer }: { busy: boolean; answer(a: InputAnswer): Promise<void> }) {
  return (
    <>
      <button
        type="button"
        className={buttonClass.secondary}
        disabled={busy}
        onClick={() => answer({ action: "decline" }).catch(reportError)}
        data-testid="input-decline"
      >
        Decline
      </button>
      <button
        type="button"
        className={buttonClass.ghost}
        disabled={busy}
        onClick={() => answer({ action: "cancel" }).catch(reportError)}
        data-testid="input-cancel"
      >
        <X className="size-3.5" /> Cancel
      </button>
    </>
  );
}

function Refusal({ sent }: { sent: Sent }) {
  return sent.error ? (
    <p role="alert" className="mt-2 text-[13px] text-destructive" data-testid="input-error">
      {sent.error}
    </p>
  ) : null;
}

function Message({ text }: { text: string }) {
  return (
    <p className="mb-2 whitespace-pre-wrap break-words" data-testid="input-message">
      {text}
    </p>
  );
}

function FormRequest({ runId, input }: { runId: string; input: Narrow<"elicitation", "form"> }) {
  const [data, setData] = useState<unknown>({});
  const { busy, sent, answer } = useAnswer(runId, input.id);
  const schema = input.requestedSchema as RJSFSchema;
  return (
    <div>
      <Message text={input.message} />
      <ParamForm schema={schema} formData={data} onChange={({ formData }) => setData(formData)} extraErrors={contentErrors(sent.fields)} idPrefix="input" />
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass.primary}
          disabled={busy}
          onClick={() => answer({ action: "accept", content: pruneUnset(data ?? {}, schema) as Record<string, unknown> }).catch(reportError)}
          data-testid="input-accept"
        >
          <Check className="size-3.5" /> Accept and send
        </button>
        <DeclineOrCancel busy={busy} answer={answer} />
      </div>
      <Refusal sent={sent} />
    </div>
  );
}

function UrlRequest({ runId, input }: { runId: string; input: Narrow<"elicitation", "url"> }) {
  const [consent, setConsent] = useState(false);
  const { busy, sent, answer } = useAnswer(runId, input.id);
  const href = safeHref(input.url);
  const host = href ? new URL(href).host : null;
  return (
    <div>
      <Message text={input.message} />
      <p className="mb-2 break-all rounded border bg-background px-2 py-1 font-mono text-[12px]" data-testid="input-url">
        {input.url}
      </p>
      {href ? (
        <>
          <label className="mb-2 flex items-center gap-2 text-[13px]">
            <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} data-testid="input-url-consent" />I trust{" "}
            <span className="font-mono">{host}</span> and want to open this link
          </label>
          <div className="flex flex-wrap gap-2">
            {consent ? (
              <a
                href={href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                referrerPolicy="no-referrer"
                className={buttonClass.secondary}
                data-testid="input-url-open"
              >
                <ExternalLink className="size-3.5" /> Open {host}
              </a>
            ) : (
              <span className={buttonClass.secondary} aria-disabled="true">
                <ExternalLink className="size-3.5" /> Open {host}
              </span>
            )}
            <button
              type="button"
              className={buttonClass.primary}
              disabled={busy || !consent}
              onClick={() => answer({ action: "accept" }).catch(reportError)}
              data-testid="input-accept"
            >
              <Check className="size-3.5" /> Done, continue
            </button>
            <DeclineOrCancel busy={busy} answer={answer} />
          </div>
        </>
      ) : (
        <p className="text-destructive">This link is not an http(s) address and is not offered.</p>
      )}
      <Refusal sent={sent} />
    </div>
  );
}

function SamplingRequest({ runId, input }: { runId: string; input: Narrow<"sampling"> }) {
  const [text, setText] = useState("");
  const [model, setModel] = useState("");
  const { busy, sent, answer } = useAnswer(runId, input.id);
  return (
    <div>
      <p className="mb-2 text-[13px] text-muted-foreground">
        The server asks for a model&apos;s reply. No model is called: write (or edit) the reply and approve it.
        {input.maxTokens !== undefined && ` At most ${input.maxTokens} tokens asked.`}
        {input.modelHint && ` Model hint: ${input.modelHint}.`}
      </p>
      {input.systemPrompt && (
        <div className="mb-2" data-testid="sampling-system">
          <p className="text-[11px] font-medium uppercase text-muted-foreground">System prompt</p>
          <p className="whitespace-pre-wrap break-words">{input.systemPrompt}</p>
        </div>
      )}
      <ol className="mb-2 space-y-1.5" data-testid="sampling-messages">
        {input.messages.map((m, i) => (
          <li key={i} className="rounded border bg-background px-2 py-1">
            <span className="text-[11px] font-medium uppercase text-muted-foreground">{m.role}</span>
            <p className="whitespace-pre-wrap break-words">{m.text}</p>
          </li>
        ))}
      </ol>
      <label className="block text-[13px] font-medium" htmlFor={`reply-${input.id}`}>
        Reply (as the assistant)
      </label>
      <textarea
        id={`reply-${input.id}`}
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={4}
        className="mt-1 w-full rounded-md border bg-background px-2 py-1.5"
        data-testid="sampling-reply"
      />
      <label className="mt-1 flex items-center gap-2 text-[12px] text-muted-foreground">
        Model name sent back (optional)
        <input
          value={model}
          onChange={(e) => setModel(e.target.value)}
          className="h-7 flex-1 rounded-md border bg-background px-2"
          placeholder="human-in-the-loop (tool-studio)"
          data-testid="sampling-model"
        />
      </label>
      <div className="mt-2 flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass.primary}
          disabled={busy || !text.trim()}
          onClick={() => answer({ action: "approve", text, ...(model.trim() ? { model: model.trim() } : {}) }).catch(reportError)}
          data-testid="sampling-approve"
        >
          <Send className="size-3.5" /> Approve and send
        </button>
        <button
          type="button"
          className={buttonClass.secondary}
          disabled={busy}
          onClick={() => answer({ action: "reject" }).catch(reportError)}
          data-testid="sampling-reject"
        >
          Reject
        </button>
      </div>
      <Refusal sent={sent} />
    </div>
  );
}
