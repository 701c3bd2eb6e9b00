import { errorResponse, MAX_BODY_BYTES } from "@/lib/http/http";
import { handleMcpRequest } from "@/lib/mcp-server/server";
import { getStudio, localActor } from "@/lib/studio/studio";

// The studio as an MCP server (Streamable HTTP): see lib/mcp-server. proxy.ts has already
// refused unknown Host names and cross-origin writes; lib/mcp-server applies the bearer-token rules.
export const dynamic = "force-dynamic";

const serve = (req: Request): Promise<Response> => {
  if (Number(req.headers.get("content-length")) > MAX_BODY_BYTES) {
    return Promise.resolve(errorResponse(413, "payload_too_large", `The request body is larger than the limit of ${MAX_BODY_BYTES} bytes (STUDIO_MAX_BODY_BYTES).`));
  }
  return handleMcpRequest(req, { studio: getStudio, actor: localActor });
};

export const GET = serve;
export const POST = serve;
export const DELETE = serve;
