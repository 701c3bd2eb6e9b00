/**
 * What the model gets back (issue 31 item 4): a captured run as the tool-result message each
 * target's model receives, with what of the result each one carries, changes or drops. The run
 * is first what an MCP client is answered (lib/mcp-server/mapping.ts `toCallToolResult`: for a
 * failed run, the caller-safe message and its kind, never the operator-only detail), then each
 * content block is carried as the provider's message format takes it. Pure.
 */
import { toCallToolResult } from "../mcp-server/mapping";
import type { Run } from "../runs/types";
import type { ContentBlock } from "../tools/output";
import { countTokens } from "./tokens";
import type { Target, TokenCount } from "./types";

export const RESULT_DOCS: Record<Target, string> = {
  mcp: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-result",
  "openai-chat": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages",
  "openai-responses": "https://platform.openai.com/docs/guides/function-calling#function-tool-outputs",
  anthropic: "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use#handling-tool-use-and-tool-result-content-blocks",
  gemini: "https://ai.google.dev/gemini-api/docs/function-calling#multimodal",
  rig: "https://docs.rs/rig-core/latest/rig/completion/message/enum.ToolResultContent.html",
};

/** What happened to one part of the result on the way to the model. */
export interface Carried {
  /** The part: a content block (`/content/2`) or `/structuredContent`. */
  pointer: string;
  what: string;
  how: "carried" | "changed" | "dropped";
  message: string;
  doc: string;
}

export interface RunModelView {
  for: Target;
  run: string;
  tool: string;
  status: Run["status"];
  /** The tool-result message (or content block) as the provider is sent it. */
  message: Record<string, unknown>;
  carried: Carried[];
  /** For a run that did not succeed: what the model is told, set apart from what only operators see. */
  modelError?: { kind: string; message: string; operatorDetail: "never sent to a model" };
  tokens: TokenCount;
  /** The provider's documentation of its tool-result message. */
  doc: string;
}

/** A stable call id the view uses where the provider needs the call's id (the real one is the agent's). */
const callId = (run: Run) => `call_${run.id.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 40)}`;

const ANTHROPIC_IMAGES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const GEMINI_INLINE = new Set(["image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"]);

function describe(b: ContentBlock): string {
  switch (b.type) {
    case "text":
      return "text";
    case "image":
      return `image (${b.mimeType})`;
    case "audio":
      return `audio (${b.mimeType})`;
    case "resource_link":
      return `resource link (${b.uri})`;
    case "resource":
      return `embedded resource (${b.resource.uri}${b.resource.mimeType ? `, ${b.resource.mimeType}` : ""})`;
  }
}

/** A resource link or a text resource as the text a text-only channel carries. */
function asText(b: ContentBlock): string | null {
  if (b.type === "text") return b.text;
  if (b.type === "resource_link") return `Resource: ${b.title ?? b.name} <${b.uri}>${b.description ? ` (${b.description})` : ""}`;
  if (b.type === "resource" && "text" in b.resource) return b.resource.text;
  return null;
}

const dataUrl = (mime: string, data: string) => `data:${mime};base64,${data}`;

interface Part {
  block: ContentBlock;
  pointer: string;
}

export function runModelView(run: Run, target: Target): RunModelView {
  const result = toCallToolResult(run);
  const doc = RESULT_DOCS[target];
  const carried: Carried[] = [];
  const note = (pointer: string, what: string, how: Carried["how"], message: string) => carried.push({ pointer, what, how, message, doc });
  const parts: Part[] = result.content.map((block, i) => ({ block: block as ContentBlock, pointer: `/content/${i}` }));
  const hasText = parts.some((p) => p.block.type === "text");
  const structured = result.structuredContent;
  let message: Record<string, unknown>;

  // Structured content: MCP asks a tool that returns it to also return it serialized as text; a
  // model is given the text. Without a text block, the JSON is sent as text instead.
  const structuredNote = (sentAsText: boolean) => {
    if (structured === undefined) return;
    if (sentAsText) note("/structuredContent", "structured content", "changed", "No text block carries it: sent as its JSON text.");
    else note("/structuredContent", "structured content", "dropped", "Not sent beside the content: the text block that serializes it is what the model reads.");
  };

  switch (target) {
    case "mcp": {
      message = {
        content: result.content,
        ...(structured !== undefined ? { structuredContent: structured } : {}),
        ...(result.isError ? { isError: true } : {}),
      };
      for (const p of parts) note(p.pointer, describe(p.block), "carried", "As the server answered it; how a model sees it is up to the MCP client.");
      if (structured !== undefined)
        note(
          "/structuredContent",
          "structured content",
          "carried",
          "Sent beside the content; clients that show it to a model usually give the text block instead.",
        );
      break;
    }
    case "openai-chat": {
      // Chat Completions: a `tool` message's content is a string or text parts only.
      const texts: string[] = [];
      for (const p of parts) {
        const t = asText(p.block);
        if (t !== null) {
          texts.push(t);
          note(
            p.pointer,
            describe(p.block),
            p.block.type === "text" ? "carried" : "changed",
            p.block.type === "text" ? "A text part." : "Sent as text: a tool message carries text only.",
          );
        } else
          note(p.pointer, describe(p.block), "dropped", "A Chat Completions tool message carries text only; images, audio and binary resources are not sent.");
      }
      if (!hasText && structured !== undefined) texts.push(JSON.stringify(structured));
      structuredNote(!hasText);
      message = { role: "tool", tool_call_id: callId(run), content: texts.length === 1 ? texts[0] : texts.map((text) => ({ type: "text", text })) };
      break;
    }
    case "openai-responses": {
      // Responses: a function_call_output's output is a string or input_text / input_image / input_file items.
      const output: Record<string, unknown>[] = [];
      for (const p of parts) {
        const b = p.block;
        const t = asText(b);
        if (b.type === "image") {
          output.push({ type: "input_image", image_url: dataUrl(b.mimeType, b.data) });
          note(p.pointer, describe(b), "carried", "An input_image item (a data URL).");
        } else if (b.type === "resource" && "blob" in b.resource && b.resource.mimeType === "application/pdf") {
          output.push({ type: "input_file", filename: b.resource.uri.split("/").pop() || "file.pdf", file_data: dataUrl("application/pdf", b.resource.blob) });
          note(p.pointer, describe(b), "carried", "An input_file item.");
        } else if (t !== null) {
          output.push({ type: "input_text", text: t });
          note(p.pointer, describe(b), b.type === "text" ? "carried" : "changed", b.type === "text" ? "An input_text item." : "Sent as an input_text item.");
        } else note(p.pointer, describe(b), "dropped", "A function_call_output takes text, images and files; audio and other binary content are not sent.");
      }
      if (!hasText && structured !== undefined) output.unshift({ type: "input_text", text: JSON.stringify(structured) });
      structuredNote(!hasText);
      const onlyText = output.length === 1 && output[0]!.type === "input_text";
      message = { type: "function_call_output", call_id: callId(run), output: onlyText ? output[0]!.text : output };
      break;
    }
    case "anthropic": {
      const content: Record<string, unknown>[] = [];
      for (const p of parts) {
        const b = p.block;
        const t = asText(b);
        if (b.type === "image" && ANTHROPIC_IMAGES.has(b.mimeType)) {
          content.push({ type: "image", source: { type: "base64", media_type: b.mimeType, data: b.data } });
          note(p.pointer, describe(b), "carried", "An image block.");
        } else if (b.type === "image") {
          note(p.pointer, describe(b), "dropped", `Anthropic takes JPEG, PNG, GIF and WebP images, not ${b.mimeType}.`);
        } else if (b.type === "resource" && "blob" in b.resource && b.resource.mimeType === "application/pdf") {
          content.push({ type: "document", source: { type: "base64", media_type: "application/pdf", data: b.resource.blob } });
          note(p.pointer, describe(b), "carried", "A document block.");
        } else if (t !== null) {
          content.push({ type: "text", text: t });
          note(p.pointer, describe(b), b.type === "text" ? "carried" : "changed", b.type === "text" ? "A text block." : "Sent as a text block.");
        } else
          note(
            p.pointer,
            describe(b),
            "dropped",
            "A tool_result carries text, images, documents and search results; audio and other binary content are not sent.",
          );
      }
      if (!hasText && structured !== undefined) content.unshift({ type: "text", text: JSON.stringify(structured) });
      structuredNote(!hasText);
      message = {
        type: "tool_result",
        tool_use_id: `toolu_${run.id.replace(/[^A-Za-z0-9_]/g, "").slice(0, 40)}`,
        content,
        ...(result.isError ? { is_error: true } : {}),
      };
      break;
    }
    case "gemini": {
      // A functionResponse's response is a JSON object: "output" for the result, "error" for a failure;
      // Gemini 3 models also take media in its parts (inlineData).
      const texts: string[] = [];
      const media: Record<string, unknown>[] = [];
      for (const p of parts) {
        const b = p.block;
        const t = asText(b);
        const blob =
          b.type === "image" || b.type === "audio"
            ? { mime: b.mimeType, data: b.data }
            : b.type === "resource" && "blob" in b.resource
              ? { mime: b.resource.mimeType ?? "", data: b.resource.blob }
              : null;
        if (blob && GEMINI_INLINE.has(blob.mime)) {
          media.push({ inlineData: { mimeType: blob.mime, data: blob.data } });
          note(p.pointer, describe(b), "carried", "A part of the function response (inlineData), for models that take multimodal function responses.");
        } else if (blob) {
          note(
            p.pointer,
            describe(b),
            "dropped",
            `A function response's parts take images (PNG, JPEG, WebP), PDF and plain text, not ${blob.mime || "this content"}.`,
          );
        } else if (t !== null) {
          texts.push(t);
          if (structured !== undefined && !result.isError)
            note(p.pointer, describe(b), "dropped", "The structured content is the response's output instead (this text serializes it).");
          else
            note(
              p.pointer,
              describe(b),
              b.type === "text" ? "carried" : "changed",
              b.type === "text"
                ? `In the response's ${result.isError ? "error" : "output"} string.`
                : `Sent as text in the response's ${result.isError ? "error" : "output"} string.`,
            );
        }
      }
      let response: Record<string, unknown>;
      if (result.isError) response = { error: texts.join("\n") };
      else if (structured !== undefined) {
        response = { output: structured };
        note("/structuredContent", "structured content", "carried", "The response's output, as JSON.");
      } else response = { output: texts.join("\n") };
      message = { functionResponse: { name: run.tool, response, ...(media.length ? { parts: media } : {}) } };
      break;
    }
    case "rig": {
      const content: Record<string, unknown>[] = [];
      for (const p of parts) {
        const b = p.block;
        const t = asText(b);
        if (b.type === "image") {
          content.push({ type: "image", data: b.data, media_type: b.mimeType });
          note(p.pointer, describe(b), "carried", "ToolResultContent::Image.");
        } else if (t !== null) {
          content.push({ type: "text", text: t });
          note(
            p.pointer,
            describe(b),
            b.type === "text" ? "carried" : "changed",
            b.type === "text" ? "ToolResultContent::Text." : "Sent as ToolResultContent::Text.",
          );
        } else note(p.pointer, describe(b), "dropped", "Rig's ToolResultContent is text or an image; audio and binary resources are not sent.");
      }
      if (!hasText && structured !== undefined) content.unshift({ type: "text", text: JSON.stringify(structured) });
      structuredNote(!hasText);
      message = { id: callId(run), content };
      break;
    }
  }

  let tokens = countTokens(target, JSON.stringify(message));
  if (carried.some((c) => c.how === "carried" && /^(image|audio|embedded resource)/.test(c.what)) && target !== "mcp") {
    // Providers count media by its size or duration, not as the text of its base64.
    tokens = {
      ...tokens,
      approximate: true,
      method: `o200k_base count of the message's JSON, media included as its base64 text; the provider counts images and files its own way`,
    };
  }
  const view: RunModelView = { for: target, run: run.id, tool: run.tool, status: run.status, message, carried, tokens, doc };
  if (run.status !== "success") {
    view.modelError = { kind: run.error?.kind ?? "other", message: run.error?.message ?? "", operatorDetail: "never sent to a model" };
  }
  return view;
}
