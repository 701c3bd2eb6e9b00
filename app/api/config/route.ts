import { z } from "zod";
import { errorResponse, readJson } from "@/lib/http/http";
import { getConfigStore, type ConfigState } from "@/lib/config/store";
import { redactConfig, redactConfigText, restoreSecrets } from "@/lib/config/secrets";
import { requestOrigin } from "@/lib/http/http";
import { saveConfig } from "@/lib/servers/apply";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const PutBody = z.strictObject({
  text: z.string(),
  expectedVersion: z.number().int().min(0).optional(),
});

/**
 * `{ config, version, loadedAt, path, error, configVersion, raw }`: what GET and a good PUT answer.
 * Secrets (env, headers, OIDC client secret) are replaced by SECRET_PLACEHOLDER in `config` and `raw`.
 */
function body(state: ConfigState, raw: string) {
  return {
    config: redactConfig(state.config),
    version: state.version,
    loadedAt: state.loadedAt,
    path: state.path,
    error: state.error,
    configVersion: state.configVersion,
    raw: redactConfigText(raw),
  };
}

/** The config in use, its version, why the file on disk is not in use (if so) and the file's text. */
export const GET = guarded("/api/config", "GET", async () => {
  const store = getConfigStore();
  const state = store.current();
  return Response.json(body(state, store.raw()), { headers: { "cache-control": "no-store" } });
});

/**
 * Saves new config text: 400 when it does not validate (file untouched), 409 when the file changed
 * since `expectedVersion`. Secrets still shown as SECRET_PLACEHOLDER keep their saved values (400
 * when there is none at that path, e.g. a renamed server).
 */
export const PUT = guarded("/api/config", "PUT", async (req, { principal }) => {
  const { text: sent, expectedVersion } = await readJson(req, PutBody);
  const store = getConfigStore();
  const restored = restoreSecrets(sent, store.raw());
  if (!restored.ok) {
    const { path, line, column, message } = restored;
    return Response.json({ error: { kind: "invalid_config", message, details: [{ path, line, column, message }] } }, { status: 400 });
  }
  const text = restored.text;
  const studio = await getStudio(); // before saving: its disk watcher must be listening to tell this save apart
  const r = await saveConfig({ store, audit: studio.audit }, text, { actor: principal.actor, from: requestOrigin(req), expectedVersion });
  if (r.ok) return Response.json(body(r.state, store.raw()));
  const e = r.error;
  if (e.kind === "conflict") return errorResponse(409, "conflict", e.message, undefined, { version: store.current().version });
  if (e.kind === "io") return errorResponse(500, "io", e.message);
  return Response.json(
    { error: { kind: "invalid_config", message: e.message, details: e.issues.map(({ path, line, column, message }) => ({ path, line, column, message })) } },
    { status: 400 },
  );
});
