import { describe, expect, it } from "vitest";
import { SecretBox } from "./crypto";

describe("SecretBox", () => {
  const box = new SecretBox("the-studio-secret");

  it("seals with a fresh IV each time and opens what it sealed for the same data", () => {
    const a = box.seal("access-token-123", "tokens:gh:https://x");
    const b = box.seal("access-token-123", "tokens:gh:https://x");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain("access-token-123");
    expect(box.open(a, "tokens:gh:https://x")).toBe("access-token-123");
  });

  it("refuses an altered value, other data, another key, and what is not a sealed value", () => {
    const sealed = box.seal("secret", "tokens:gh:https://x");
    const parts = sealed.split(".");
    const flipped = parts[3][0] === "A" ? "B" : "A";
    expect(() => box.open([...parts.slice(0, 3), flipped + parts[3].slice(1)].join("."), "tokens:gh:https://x")).toThrow();
    expect(() => box.open(sealed, "tokens:other:https://x")).toThrow();
    expect(() => new SecretBox("another-secret").open(sealed, "tokens:gh:https://x")).toThrow();
    expect(() => box.open("plain text", "tokens:gh:https://x")).toThrow("not a sealed value");
    expect(() => box.open("v1.AAAA.BBBB.CCCC", "tokens:gh:https://x")).toThrow("not a sealed value");
    expect(() => new SecretBox("")).toThrow();
  });
});
