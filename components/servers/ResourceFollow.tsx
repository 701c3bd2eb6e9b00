"use client";
import { useEffect, useRef, useState } from "react";
import { BellOff, BellRing } from "lucide-react";
import { buttonClass } from "@/components/ui/button-styles";
import { reportError } from "@/components/ui/report-error";

type Follow = { state: "off" } | { state: "starting" } | { state: "on"; updates: number; updatedAt?: string } | { state: "failed"; message: string };

/** The events of a text/event-stream body, one `{event, data}` at a time, until it ends or `signal` aborts. */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: string, data: string) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trim());
      }
      if (data.length) onEvent(event, data.join("\n"));
    }
  }
}

const time = (iso: string) => new Date(iso).toLocaleTimeString();

/**
 * "Follow updates" for a resource that was read, on a server that takes subscriptions: the
 * studio subscribes upstream while this is on (GET …/resources/follow, a server-sent event
 * stream) and `onUpdated` re-reads the resource each time the server says it changed. Stops
 * when switched off, when another resource is read, or when the page goes away.
 */
export function ResourceFollow({ base, uri, onUpdated }: { base: string; uri: string; onUpdated: () => void }) {
  const [follow, setFollow] = useState<Follow>({ state: "off" });
  const active = follow.state === "starting" || follow.state === "on";
  const updated = useRef(onUpdated);
  useEffect(() => {
    updated.current = onUpdated;
  });

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    (async () => {
      const res = await fetch(`${base}/resources/follow?uri=${encodeURIComponent(uri)}`, {
        cache: "no-store",
        signal: controller.signal,
        headers: { accept: "text/event-stream" },
      });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: unknown } } | null;
        const message = typeof body?.error?.message === "string" ? body.error.message : `The studio answered ${res.status}.`;
        setFollow({ state: "failed", message });
        return;
      }
      await readEvents(res.body, (event, data) => {
        if (event === "following") setFollow({ state: "on", updates: 0 });
        if (event !== "updated") return;
        let at = new Date().toISOString();
        try {
          const parsed = JSON.parse(data) as { at?: unknown };
          if (typeof parsed.at === "string") at = parsed.at;
        } catch {
          // the time it arrived, then
        }
        setFollow((f) => ({ state: "on", updates: (f.state === "on" ? f.updates : 0) + 1, updatedAt: at }));
        updated.current();
      });
      if (!controller.signal.aborted)
        setFollow({ state: "failed", message: "The studio ended the stream (the server may have gone away). Follow again to resume." });
    })().catch((e: unknown) => {
      if (controller.signal.aborted) return;
      if (e instanceof TypeError) setFollow({ state: "failed", message: `The stream broke: ${e.message}` });
      else reportError(e);
    });
    return () => controller.abort();
  }, [active, base, uri]);

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="resource-follow">
      <button
        type="button"
        className={buttonClass.secondary}
        aria-pressed={active}
        onClick={() => setFollow(active ? { state: "off" } : { state: "starting" })}
      >
        {active ? <BellOff className="size-4" aria-hidden /> : <BellRing className="size-4" aria-hidden />}
        {active ? "Stop following" : "Follow updates"}
      </button>
      <span role="status" aria-live="polite" className="text-[12px] text-muted-foreground" data-testid="follow-status">
        {follow.state === "starting" && "Subscribing…"}
        {follow.state === "on" &&
          (follow.updatedAt
            ? `Updated at ${time(follow.updatedAt)} (${follow.updates} update${follow.updates === 1 ? "" : "s"} while following)`
            : "Following: the contents are read again when the server says they changed.")}
        {follow.state === "failed" && <span className="text-destructive">{follow.message}</span>}
      </span>
    </div>
  );
}
