/**
 * The hot routes: the ones the production server (scripts/server.mjs) serves with their own
 * handlers on its own small router, before Next's (issue 12: Next's router cost each request more
 * than a whole captured run's own work; issue 37: /api/mcp through it took 1.8x the same run on
 * REST). This is the one table of those paths: the server routes by it, scripts/fast-routes.ts
 * (the bundle the server loads) holds a handler for each, and lib/http/fast-path.test.ts fails when
 * proxy.ts's matcher, lib/auth/routes.ts or that bundle disagree with it.
 *
 * Each handler is `guarded` (lib/studio/guarded.ts), so the door is the same whichever way a request
 * arrives; `next dev` serves these routes through Next like every other.
 */
export type FastMethod = "GET" | "POST" | "DELETE";

export interface FastRoute {
  /** As in lib/auth/routes.ts (the folder under app/). */
  pattern: string;
  methods: readonly FastMethod[];
  /**
   * proxy.ts's matcher leaves the path out too, so under Next it reaches its handler without the
   * proxy (which costs a request Next's middleware machinery, issue 12); its handler refuses its
   * other methods as the proxy would (otherMethods in lib/studio/guarded.ts).
   */
  unproxied: boolean;
  /** The answer is a big list that changes rarely: its gzip is kept per ETag, not compressed again on every request. */
  gzipByEtag: boolean;
}

export const FAST_ROUTES: readonly FastRoute[] = [
  // Every run.
  { pattern: "/api/tools/[name]/run", methods: ["POST"], unproxied: true, gzipByEtag: false },
  // The whole registry, megabytes with a big one.
  { pattern: "/api/tools", methods: ["GET"], unproxied: false, gzipByEtag: true },
  // Every call an agent makes through the studio; its event streams are passed on as they come.
  { pattern: "/api/mcp", methods: ["GET", "POST", "DELETE"], unproxied: false, gzipByEtag: false },
];

/**
 * A path segment the fast path takes: plain characters only. A name with a %-escape or anything
 * else goes to Next, whose URL checks answer it (and proxy.ts's matcher says the same).
 */
const PLAIN_SEGMENT = "[A-Za-z0-9_.-]+";

export interface FastMatch {
  route: FastRoute;
  params: Record<string, string>;
}

const compiled = FAST_ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.pattern
    .split("/")
    .map((s) => {
      const dynamic = /^\[([a-z]+)\]$/i.exec(s);
      if (!dynamic) return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      names.push(dynamic[1]!);
      return `(${PLAIN_SEGMENT})`;
    })
    .join("/");
  return { route, names, re: new RegExp(`^${source}(?:\\?|$)`) };
});

/** The fast route for a request line (`url` as on the wire: path and query), or null for Next. */
export function matchFastRoute(method: string, url: string): FastMatch | null {
  for (const c of compiled) {
    if (!c.route.methods.includes(method as FastMethod)) continue;
    const m = c.re.exec(url);
    if (!m) continue;
    const params: Record<string, string> = {};
    c.names.forEach((n, i) => (params[n] = m[i + 1]!));
    return { route: c.route, params };
  }
  return null;
}
