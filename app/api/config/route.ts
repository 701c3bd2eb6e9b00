import { z } from "zod";
import { errorResponse, readJson, toErrorResponse } from "@/lib/http/http";
import { getConfigStore, type ConfigState } from "@/lib/config/store";
import { auditConfigSave, requestFrom } from "@/lib/audit";
import { getStudio, localActor } from "@/lib/studio/studio";

export const dynamic = "force-dynamic";

const PutBody = z.strictObject({
  text: z.string(),
  expectedVersion: z.number().int().min(0).optional(),
});

/** `{ config, version, loadedAt, path, error, configVersion, raw }`: what GET and a good PUT answer. */
function body(state: ConfigState, raw: string) {
  return { config: state.config, version: state.version, loadedAt: state.loadedAt, path: state.path, error: state.error, configVersion: state.configVersion, raw };
}

/** The config in use, its version, why the file on disk is not in use (if so) and the file's text. */
export async function GET() {
  try {
    const store = getConfigStore();
    const state = store.current();
    return Response.json(body(state, store.raw()), { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return toErrorResponse(err);
  }
}

/** Saves new config text: 400 when it does not validate (file untouched), 409 when the file changed since `expectedVersion`. */
export async function PUT(req: Request) {
  try {
    const { text, expectedVersion } = await readJson(req, PutBody);
    const store = getConfigStore();
    const studio = await getStudio(); // before saving: its disk watcher must be listening to tell this save apart
    const r = store.save(text, { expectedVersion });
    if (r.ok) {
      // Right after save(), before any other await: marks this version as the API's (one entry, with `from`).
      await auditConfigSave(studio.audit, store, r.state, { text, actor: localActor(), from: requestFrom(req) });
      return Response.json(body(r.state, store.raw()));
    }
    const e = r.error;
    if (e.kind === "conflict") return errorResponse(409, "conflict", e.message, undefined, { version: store.current().version });
    if (e.kind === "io") return errorResponse(500, "io", e.message);
    return Response.json(
      { error: { kind: "invalid_config", message: e.message, details: e.issues.map(({ path, line, column, message }) => ({ path, line, column, message })) } },
      { status: 400 },
    );
  } catch (err) {
    return toErrorResponse(err);
  }
}
