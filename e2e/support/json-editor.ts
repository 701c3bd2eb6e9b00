import { expect, type Page } from "@playwright/test";

/**
 * Shows the tool page's (or Settings') JSON editor and waits for Monaco in it: the editor is hidden
 * until asked for, so that Monaco is fetched only then (issue 12, page weight).
 */
export async function showJsonEditor(page: Page) {
  const show = page.getByTestId("show-json-editor");
  await expect(show.or(page.getByTestId("hide-json-editor"))).toBeVisible();
  if (await show.isVisible()) await show.click();
  // Monaco is about 5 MB of script to fetch and compile: on a busy 2-core machine that takes a while.
  await expect(page.getByTestId("json-editor").locator(".monaco-editor").first()).toBeVisible({ timeout: 60_000 });
}
