import type { Page } from "@playwright/test";

/** Fills create_event's required fields from the form (an in-person venue in Lisbon, one attendee). */
export async function fillCreateEventRequired(page: Page): Promise<void> {
  await page.locator("#root_title").fill("Design review");
  await page.locator("#root_start").fill("2026-12-01T10:00");
  await page.locator("#root_venue_street").fill("1 Main St");
  await page.locator("#root_venue_city").fill("Lisbon");
  await page.locator('[id="root_venue_country"]').selectOption({ label: "Portugal" });
  await page.locator("#root_attendees_0_name").fill("Ada");
}
