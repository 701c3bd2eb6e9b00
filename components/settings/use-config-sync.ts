"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { RuntimeConfig } from "@/lib/config/schema";
import type { ConfigError, ConfigIssue } from "@/lib/config/store";
import { reportError } from "@/components/ui/report-error";

/** What GET /api/config answers (and a successful PUT). */
export interface ConfigSnapshot {
  config: RuntimeConfig;
  /** sha256 hex of the file's text: what a save sends back as expectedVersion. */
  version: string;
  /** The latest config revision in the database (the same on every instance), when there is one. */
  revision?: { id: number; author: string; source: string; createdAt: string } | null;
  loadedAt: string;
  path: string;
  error: ConfigError | null;
  configVersion: string | null;
  raw: string;
}

/** A save that did not happen, as shown under the editor. */
export interface SaveProblem {
  kind: string;
  message: string;
  details: ConfigIssue[];
}

/** The link to GET /api/config/events. */
export type LiveStatus = "connecting" | "live" | "reconnecting";

export interface ConfigSync {
  /** The latest state the server told us about (shown in the toolbar and the summary). */
  server: ConfigSnapshot;
  /** The editor's text, and its setter for the editor's onChange. */
  text: string;
  setText: (text: string) => void;
  /** The text differs from what the editor was loaded from. */
  dirty: boolean;
  saving: boolean;
  /** Why the last save or load failed; cleared by the next save, load or revert. */
  problem: SaveProblem | null;
  /** The version on disk that the unsaved edits did not take in (a pending conflict), else null. */
  newerOnDisk: string | null;
  /** When the last save succeeded; reset to null 4 s later. */
  savedAt: number | null;
  live: LiveStatus;
  /** PUT the text; `overwrite` saves over a newer version on disk instead of refusing with 409. */
  save: (opts?: { overwrite?: boolean }) => Promise<void>;
  /** Replace the text (unsaved edits included) with the file as it is on disk. */
  loadFromDisk: () => Promise<void>;
  /** Back to the text the editor was loaded from. */
  revert: () => void;
}

/**
 * The sync state machine of the config editor.
 *
 * - `live`: connecting -> live when the event stream opens (or sends); -> reconnecting on a stream
 *   error or a failed fetch; back to live on the next open/event.
 * - Edits: clean (text === base.text) <-> dirty. While dirty, Ctrl/Cmd+S saves (if `canSave`) and a
 *   reload or close asks first. `revert` returns to clean.
 * - A change on disk (an event with a new version/loadedAt) fetches the new state and adopts it:
 *   when clean, or when the text is the same, base (and, when clean, the text) follow it; when
 *   dirty with other text, `newerOnDisk` is set: the edits are kept, and the user may
 *   `loadFromDisk` (drop them) or `save({ overwrite: true })` (expectedVersion = the server's).
 * - `save`: saving -> ok (server = base = the answer, newerOnDisk cleared, savedAt set for 4 s)
 *   or a `problem`; a 409 also fetches the state on disk and sets `newerOnDisk`.
 * - `loadFromDisk`: server = base = text = the file on disk; clears `newerOnDisk` and `problem`.
 * Fetches are sequenced: a later fetch supersedes an earlier one still in flight.
 */
export function useConfigSync(initial: ConfigSnapshot, { canSave }: { canSave: boolean }): ConfigSync {
  const [server, setServer] = useState(initial); // the latest state the server told us about
  const [base, setBase] = useState({ text: initial.raw, version: initial.version }); // what the editor was loaded from
  const [text, setText] = useState(initial.raw);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<SaveProblem | null>(null);
  const [newerOnDisk, setNewerOnDisk] = useState<string | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  const [live, setLive] = useState<LiveStatus>("connecting");
  const dirty = text !== base.text;

  // Handlers outside React's render (SSE, keyboard) read the latest values through refs.
  const latest = useRef({ text, base, dirty, server });
  latest.current = { text, base, dirty, server };
  const fetchSeq = useRef(0);

  /** Takes in a state from the server; replaces the editor's text only if it holds no unsaved edits. */
  const adopt = useCallback((snap: ConfigSnapshot) => {
    setServer(snap);
    const { text: current, base: loaded, dirty: hasEdits } = latest.current;
    if (snap.raw === loaded.text || snap.raw === current || !hasEdits) {
      // Same text (perhaps our own save, or a restart renumbered versions), or nothing to lose.
      setBase({ text: snap.raw, version: snap.version });
      if (!hasEdits) setText(snap.raw);
      setNewerOnDisk(null);
    } else {
      setNewerOnDisk(snap.version);
    }
  }, []);

  const fetchState = useCallback(async (): Promise<ConfigSnapshot | null> => {
    const seq = ++fetchSeq.current;
    const res = await fetch("/api/config", { cache: "no-store" });
    if (!res.ok) throw new Error(`GET /api/config answered ${res.status}`);
    const snap = (await res.json()) as ConfigSnapshot;
    return seq === fetchSeq.current ? snap : null; // a later fetch supersedes this one
  }, []);

  // Live updates: the server says when the file changed; fetch the new text and state then.
  useEffect(() => {
    const es = new EventSource("/api/config/events");
    es.addEventListener("open", () => setLive("live"));
    es.addEventListener("error", () => setLive("reconnecting"));
    es.addEventListener("config", (ev) => {
      setLive("live");
      let data: { version?: string; loadedAt?: string };
      try {
        data = JSON.parse((ev as MessageEvent<string>).data);
      } catch {
        return;
      }
      const known = latest.current.server;
      if (data.version === known.version && data.loadedAt === known.loadedAt) return; // nothing new
      fetchState()
        .then((snap) => snap && adopt(snap))
        .catch(() => setLive("reconnecting"));
    });
    return () => es.close();
  }, [adopt, fetchState]);

  const save = useCallback(
    async (opts: { overwrite?: boolean } = {}) => {
      const { text: toSave, base: loaded, server: srv } = latest.current;
      setSaving(true);
      setProblem(null);
      try {
        const res = await fetch("/api/config", {
          method: "PUT",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ text: toSave, expectedVersion: opts.overwrite ? srv.version : loaded.version }),
        });
        const body = await res.json().catch(() => ({}));
        if (res.ok) {
          const snap = body as ConfigSnapshot;
          setServer(snap);
          setBase({ text: snap.raw, version: snap.version });
          setNewerOnDisk(null);
          setSavedAt(Date.now());
          return;
        }
        const err = (body as { error?: { kind?: string; message?: string; details?: ConfigIssue[] } }).error ?? {};
        setProblem({ kind: err.kind ?? "error", message: err.message ?? `The server answered ${res.status}.`, details: err.details ?? [] });
        if (res.status === 409) {
          // Someone else saved: learn their version so "Load from disk" / "Overwrite" can act on it.
          const snap = await fetchState().catch(() => null);
          if (snap) {
            setServer(snap);
            setNewerOnDisk(snap.version);
          }
        }
      } catch (e) {
        setProblem({ kind: "network", message: `Could not reach the studio: ${(e as Error).message}. Your text is kept.`, details: [] });
      } finally {
        setSaving(false);
      }
    },
    [fetchState],
  );

  const loadFromDisk = useCallback(async () => {
    try {
      const snap = await fetchState();
      if (!snap) return;
      setServer(snap);
      setBase({ text: snap.raw, version: snap.version });
      setText(snap.raw);
      setNewerOnDisk(null);
      setProblem(null);
    } catch (e) {
      setProblem({ kind: "network", message: `Could not load the file: ${(e as Error).message}`, details: [] });
    }
  }, [fetchState]);

  const revert = useCallback(() => {
    setText(base.text);
    setProblem(null);
  }, [base.text]);

  // Ctrl/Cmd+S saves (capture phase: before Monaco and instead of the browser's "Save page").
  const saveRef = useRef(save);
  saveRef.current = save;
  const canSaveRef = useRef(canSave);
  canSaveRef.current = canSave;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") {
        e.preventDefault();
        if (latest.current.dirty && canSaveRef.current) saveRef.current().catch(reportError);
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);

  // Unsaved edits are not lost to a stray reload or close.
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", onBeforeUnload);
    return () => window.removeEventListener("beforeunload", onBeforeUnload);
  }, [dirty]);

  useEffect(() => {
    if (savedAt === null) return;
    const t = setTimeout(() => setSavedAt(null), 4000);
    return () => clearTimeout(t);
  }, [savedAt]);

  return { server, text, setText, dirty, saving, problem, newerOnDisk, savedAt, live, save, loadFromDisk, revert };
}
