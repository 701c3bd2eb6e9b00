/** One JSON call to the studio: the body, or the studio's error message. */
export async function call(url: string, init?: RequestInit): Promise<{ ok: true; body: Record<string, unknown> } | { ok: false; message: string }> {
  try {
    const res = await fetch(url, { cache: "no-store", ...init });
    const body: unknown = await res.json().catch(() => null);
    const obj = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    if (res.ok) return { ok: true, body: obj };
    const err = obj.error as { message?: unknown } | undefined;
    return { ok: false, message: typeof err?.message === "string" ? err.message : `The studio answered ${res.status}.` };
  } catch (e) {
    return { ok: false, message: `The request did not reach the studio: ${(e as Error).message}` };
  }
}

/** A JSON POST to the studio (`signal` aborts it: the answer is then a failure nobody shows). */
export const post = (url: string, body: unknown, signal?: AbortSignal) =>
  call(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), signal });
