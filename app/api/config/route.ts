import { z } from "zod";
import { errorResponse, readJson } from "@/lib/http/http";
import type { RevisionInfo } from "@/lib/config/revisions";
import type { ConfigState } from "@/lib/config/store";
import { redactConfig, redactConfigText, restoreSecrets } from "@/lib/config/secrets";
import { requestOrigin } from "@/lib/http/http";
import { saveConfig } from "@/lib/servers/apply";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const PutBody = z.strictObject({
  text: z.string(),
  /** The version (sha256 hex of the text) the edit started from, as GET answered it. */
  expectedVersion: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "must be a version as GET /api/config answers it (64 hex digits)")
    .optional(),
});

/**
 * `{ config, version, revision, loadedAt, path, error, configVersion, raw }`: what GET and a good
 * PUT answer, with the version as the ETag. Secrets (env, headers, OIDC client secret) are
 * replaced by SECRET_PLACEHOLDER in `config` and `raw`.
 */
function body(state: ConfigState, raw: string, revision: RevisionInfo | null) {
  return {
    config: redactConfig(state.config),
    version: state.version,
    revision,
    loadedAt: state.loadedAt,
    path: state.path,
    error: state.error,
    configVersion: state.configVersion,
    raw: redactConfigText(raw),
  };
}

const etag = (state: ConfigState) => `"${state.version}"`;

/** The config in use, its version and revision, why the file on disk is not in use (if so) and the file's text. */
export const GET = guarded("/api/config", "GET", async () => {
  const studio = await getStudio();
  const store = studio.config.store;
  const state = store.current();
  return Response.json(body(state, store.raw(), studio.config.head()), { headers: { "cache-control": "no-store", etag: etag(state) } });
});

/**
 * Saves new config text as a new revision: 400 when it does not validate (nothing written), 409
 * when the config changed since `expectedVersion` (or an `If-Match` header's version), on any
 * instance. Secrets still shown as SECRET_PLACEHOLDER keep their saved values (400 when there is
 * none at that path, e.g. a renamed server).
 */
export const PUT = guarded("/api/config", "PUT", async (req, { principal }) => {
  const { text: sent, expectedVersion: fromBody } = await readJson(req, PutBody);
  const ifMatch = req.headers.get("if-match");
  const fromHeader = ifMatch && ifMatch !== "*" ? /^(?:W\/)?"?([0-9a-f]{64})"?$/.exec(ifMatch.trim())?.[1] : undefined;
  if (ifMatch && ifMatch !== "*" && !fromHeader)
    return errorResponse("bad_request", 'If-Match: expected a version as GET /api/config answers it in its ETag ("<64 hex digits>")');
  if (fromBody && fromHeader && fromBody !== fromHeader) return errorResponse("bad_request", "expectedVersion and If-Match name different versions");
  const expectedVersion = fromBody ?? fromHeader;
  const studio = await getStudio();
  const store = studio.config.store;
  const restored = restoreSecrets(sent, store.raw());
  if (!restored.ok) {
    const { path, line, column, message } = restored;
    return Response.json({ error: { kind: "invalid_config", message, details: [{ path, line, column, message }] } }, { status: 400 });
  }
  const text = restored.text;
  const r = await saveConfig({ config: studio.config }, text, { actor: principal.actor, from: requestOrigin(req), expectedVersion });
  if (r.ok) return Response.json(body(r.state, store.raw(), studio.config.head()), { headers: { etag: etag(r.state) } });
  const e = r.error;
  if (e.kind === "conflict") return errorResponse("conflict", e.message, undefined, { version: store.current().version });
  if (e.kind === "io") return errorResponse("io", e.message);
  return Response.json(
    { error: { kind: "invalid_config", message: e.message, details: e.issues.map(({ path, line, column, message }) => ({ path, line, column, message })) } },
    { status: 400 },
  );
});
