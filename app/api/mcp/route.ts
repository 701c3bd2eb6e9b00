import { handleMcpRequest } from "@/lib/mcp-server/server";
import { getStudio, localActor } from "@/lib/studio/studio";

// The studio as an MCP server (Streamable HTTP): see lib/mcp-server. proxy.ts has already
// refused unknown Host names and cross-origin writes; lib/mcp-server applies the bearer-token rules.
export const dynamic = "force-dynamic";

const serve = (req: Request): Promise<Response> => handleMcpRequest(req, { studio: getStudio, actor: localActor });

export const GET = serve;
export const POST = serve;
export const DELETE = serve;
