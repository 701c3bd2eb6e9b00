import { readBody, toErrorResponse } from "@/lib/http/http";
import { handleMcpRequest } from "@/lib/mcp-server/server";
import { guarded } from "@/lib/studio/guarded";
import { getStudio } from "@/lib/studio/studio";

// The studio as an MCP server (Streamable HTTP): see lib/mcp-server. The door has established
// the caller (an API token, STUDIO_MCP_TOKEN or STUDIO_ADMIN_TOKEN); tools/call applies the run
// policy to their role.
export const dynamic = "force-dynamic";

const serve = (method: "GET" | "POST" | "DELETE") =>
  guarded("/api/mcp", method, async (req, { principal }) => {
    // Read here with the one limit (declared or streamed), so a body over it is answered 413 in the
    // one shape and read to its end first (the client, still sending, reads the answer).
    let request = req;
    if (req.body) {
      try {
        request = new Request(req, { body: (await readBody(req)) as Uint8Array<ArrayBuffer> });
      } catch (err) {
        return toErrorResponse(err);
      }
    }
    return handleMcpRequest(request, { studio: getStudio }, principal);
  });

export const GET = serve("GET");
export const POST = serve("POST");
export const DELETE = serve("DELETE");
