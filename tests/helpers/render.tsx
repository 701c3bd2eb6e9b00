// Component tests: render inside what Next gives a client component (the app router and the
// current URL), with fetch going to the real route handlers of an in-process studio (routeFetch).
// The router records what the component asked of it and moves the URL as Next would; nothing of
// the studio is replaced.
import { act, cleanup, configure, render, type RenderResult } from "@testing-library/react";
import { EventSource as FetchEventSource } from "eventsource";
import { useState, type ReactElement } from "react";
import { AppRouterContext, type AppRouterInstance } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { PathnameContext, SearchParamsContext } from "next/dist/shared/lib/hooks-client-context.shared-runtime";

// What the page waits for goes through a real studio (password hashing, a run, a database write):
// on two busy cores that is more than Testing Library's default second.
configure({ asyncUtilTimeout: 10_000 });

export interface TestRouter {
  /** What the component asked for, in order. */
  calls: { method: "push" | "replace" | "refresh" | "back" | "forward"; href?: string }[];
  /** The URL now (path and query). */
  url(): string;
  /** A navigation from outside the component (Back, a link elsewhere): the URL becomes `href`. */
  navigate(href: string): Promise<void>;
  /** From now on a push or replace arrives only when released (a slow server render). */
  hold(): void;
  /** Lets the oldest held navigation arrive; the rest stay held. */
  release(): Promise<void>;
}

export interface AppOptions {
  /** fetch of the page: routeFetch to an in-process studio (InProcessStudio.fetch). */
  fetch?: typeof fetch;
  /** The page's URL (default "/"). */
  url?: string;
}

/** The page's fetch and EventSource both go through `studioFetch` (the event streams too). */
export function installFetch(studioFetch: typeof fetch): void {
  globalThis.fetch = studioFetch;
  window.fetch = studioFetch;
  class StudioEventSource extends FetchEventSource {
    constructor(url: string | URL, init?: { withCredentials?: boolean }) {
      super(new URL(url, "http://127.0.0.1:3000"), { ...init, fetch: studioFetch });
    }
  }
  // eslint-disable-next-line no-restricted-syntax -- the eventsource package's class is the WHATWG EventSource, typed on its own
  globalThis.EventSource = StudioEventSource as unknown as typeof EventSource;
  window.EventSource = globalThis.EventSource;
}

export function renderInApp(ui: ReactElement, opts: AppOptions = {}): RenderResult & { router: TestRouter } {
  if (opts.fetch) installFetch(opts.fetch);
  let setUrl: (href: string) => void = () => {};
  let current = opts.url ?? "/";
  let holding = false;
  const held: string[] = [];
  const go = (href: string) => {
    const u = new URL(href, "http://127.0.0.1");
    current = u.pathname + u.search;
    setUrl(current);
  };
  const test: TestRouter = {
    calls: [],
    url: () => current,
    navigate: async (href) => act(async () => go(href)),
    hold: () => {
      holding = true;
    },
    release: async () => {
      const href = held.shift();
      if (href !== undefined) await act(async () => go(href));
    },
  };
  const navigation = (method: "push" | "replace") => (href: string) => {
    test.calls.push({ method, href });
    if (holding) held.push(href);
    else go(href);
  };
  const router: AppRouterInstance = {
    back: () => void test.calls.push({ method: "back" }),
    forward: () => void test.calls.push({ method: "forward" }),
    refresh: () => void test.calls.push({ method: "refresh" }),
    push: navigation("push"),
    replace: navigation("replace"),
    prefetch: () => {},
    // One page load: a navigation here never opts a form out of keeping its state.
    bfcacheId: "test",
  };

  function App() {
    const [url, set] = useState(current);
    setUrl = set;
    const u = new URL(url, "http://127.0.0.1");
    return (
      <AppRouterContext.Provider value={router}>
        <PathnameContext.Provider value={u.pathname}>
          <SearchParamsContext.Provider value={u.searchParams}>{ui}</SearchParamsContext.Provider>
        </PathnameContext.Provider>
      </AppRouterContext.Provider>
    );
  }
  return Object.assign(render(<App />), { router: test });
}

export { cleanup };
