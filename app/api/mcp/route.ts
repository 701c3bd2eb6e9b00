import { readBody, toErrorResponse } from "@/lib/http/http";
import { handleMcpRequest, type McpBody } from "@/lib/mcp-server/server";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

// The studio as an MCP server (Streamable HTTP): see lib/mcp-server. The door has established
// the caller (an API token, STUDIO_MCP_TOKEN or STUDIO_ADMIN_TOKEN); tools/call applies the run
// policy to their role.
export const dynamic = "force-dynamic";

const serve = (method: "GET" | "POST" | "DELETE") =>
  guarded("/api/mcp", method, async (req, { principal }) => {
    if (!req.body) return handleMcpRequest(req, { studio: getStudio }, principal);
    // Read here with the one limit (declared or streamed), so a body over it is answered 413 in the
    // one shape and read to its end first (the client, still sending, reads the answer).
    let bytes: Uint8Array;
    try {
      bytes = await readBody(req);
    } catch (err) {
      return toErrorResponse(err);
    }
    const body = parsed(bytes);
    // A body that is not JSON goes to the SDK as sent, which answers it in JSON-RPC's words.
    if (!body) return handleMcpRequest(new Request(req, { body: bytes as Uint8Array<ArrayBuffer> }), { studio: getStudio }, principal);
    return handleMcpRequest(req, { studio: getStudio }, principal, body);
  });

function parsed(bytes: Uint8Array): McpBody | null {
  try {
    return { parsedBody: JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8")) };
  } catch {
    return null;
  }
}

export const GET = serve("GET");
export const POST = serve("POST");
export const DELETE = serve("DELETE");
