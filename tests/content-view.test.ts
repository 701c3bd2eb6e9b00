import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ContentView } from "@/components/runs/ContentView";
import type { ContentBlock } from "@/lib/tools/output";

// A tool's content is passed on as its server sent it: whatever the blocks hold, the result
// renders (never a crash), as text, with no script, no javascript: link and no unchecked media.
const render = (content: unknown[], structuredContent?: unknown) =>
  renderToStaticMarkup(
    createElement(ContentView, { content: content as ContentBlock[], structuredContent, reader: { server: "ex", access: { allowed: true, reason: null } } }),
  );

describe("ContentView with what a hostile or broken server sends", () => {
  it("renders malformed blocks as text or 'not shown', never throwing", () => {
    const html = render([
      { type: "resource_link", uri: 42, name: { x: 1 }, title: ["t"] },
      { type: "resource_link", uri: "javascript:alert(1)", name: "<script>alert(2)</script>" },
      { type: "resource" },
      { type: "resource", resource: { uri: "a://b", text: 7 } },
      { type: "resource", resource: { uri: "a://c", blob: "not base64 !!", mimeType: "image/png" } },
      { type: "image", data: "AAAA", mimeType: "text/html" },
      { type: "image", data: "<svg onload=alert(3)>", mimeType: "image/png" },
      { type: "audio", data: "AAAA", mimeType: 'audio/wav"><script>' },
      { type: "text", text: { not: "a string" } },
      { type: "text", text: "plain", annotations: { audience: "user", priority: "high", lastModified: 5 } },
      { type: "weird", payload: "<b>x</b>" },
      null,
    ]);
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toMatch(/src="data:text\/html/i);
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;"); // the name, as text
    expect(html).toContain("Not shown: image of type text/html");
    expect(html).toContain("Not shown: a blob that is not valid base64");
    expect(html).toContain("Not shown: content of type weird");
  });

  it("shows annotations, embedded media previews and a Read button for other schemes", () => {
    const png = "iVBORw0KGgo=";
    const html = render([
      {
        type: "resource_link",
        uri: "example://notes/a.md",
        name: "a.md",
        annotations: { audience: ["user"], priority: 0.9, lastModified: "2026-11-30T12:00:00Z" },
      },
      { type: "resource", resource: { uri: "file:///x.png", mimeType: "image/png", blob: png } },
      { type: "resource", resource: { uri: "file:///x.wav", mimeType: "audio/wav", blob: "UklGRg==" } },
    ]);
    expect(html).toContain("for user");
    expect(html).toContain("priority 0.9");
    expect(html).toContain("modified 2026-11-30 12:00Z");
    expect(html).toContain('data-testid="resource-read"');
    expect(html).toContain(`src="data:image/png;base64,${png}"`);
    expect(html).toContain('download="x.png"');
    expect(html).toContain('src="data:audio/wav;base64,UklGRg=="');
  });
});
