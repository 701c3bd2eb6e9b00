import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { showJsonEditor } from "./support/json-editor";
import { fillCreateEventRequired } from "./support/create-event";

// The parameter form sends exactly what the user set (issue 14, items 1 and 2): optional fields
// start unset, clear back to unset, pasted JSON goes out as pasted; oneOf/if-then-else behave.

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `e2e/.artifacts/screens/${name}.png`, fullPage: true });
}

/** Replaces the JSON editor's text (Monaco auto-closes brackets as it types: drop what it added). */
async function typeJson(page: Page, text: string) {
  await showJsonEditor(page);
  await page.getByTestId("json-editor").locator(".monaco-editor").first().click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Shift+ControlOrMeta+End");
  await page.keyboard.press("Delete");
}

/** Runs, waits for the outcome, and returns the arguments the studio captured for that run. */
async function runAndCapture(page: Page, request: APIRequestContext, status: string) {
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", status);
  const href = await output.getByRole("link", { name: /^run / }).getAttribute("href");
  const res = await request.get(`/api/runs/${href!.split("/").pop()}`);
  expect(res.ok()).toBe(true);
  return (await res.json()).run.arguments as Record<string, unknown>;
}

test("create_event from the form, touching only required fields, sends only those", async ({ page, request }) => {
  await page.goto("/tools/create_event");
  // Optional fields start unset, their defaults shown as hints.
  await expect(page.locator('[id="root_priority"] option:checked')).toHaveText("— (default: normal)");
  await expect(page.locator("#root_durationMinutes")).toHaveValue("");
  await expect(page.locator("#root_durationMinutes")).toHaveAttribute("placeholder", "default: 60");
  await expect(page.locator("#root_notify")).toHaveJSProperty("indeterminate", true);
  await expect(page.getByText("not set (default: on)")).toBeVisible();
  await expect(page.locator('[id="root_attendees_0_role"] option:checked')).toHaveText("— (default: attendee)");

  await fillCreateEventRequired(page);
  const editor = page.getByTestId("json-preview");
  await expect(editor).toContainText('"Lisbon"');
  await expect(page.getByTestId("json-state")).toHaveText("in sync with the form");
  for (const key of ["priority", "durationMinutes", "notify", "role", "tags", "notes", "repeat"]) await expect(editor).not.toContainText(`"${key}"`);
  await shot(page, "forms-create-event");

  const args = await runAndCapture(page, request, "success");
  expect(Object.keys(args).sort()).toEqual(["attendees", "start", "title", "venue"]);
  expect(args.title).toBe("Design review");
  expect(args.venue).toEqual({ kind: "in_person", street: "1 Main St", city: "Lisbon", country: "Portugal" });
  expect(args.attendees).toEqual([{ name: "Ada" }]);
  // The tool applied its own defaults: none were sent.
  await expect(page.getByTestId("run-output")).toContainText('"priority": "normal"');
});

test("pasted JSON without optional keys is sent exactly as pasted, and picks the oneOf branch it matches", async ({ page, request }) => {
  await page.goto("/tools/create_event");
  const pasted = {
    attendees: [{ email: "ada@example.com", name: "Ada" }],
    title: "Pasted",
    venue: { platform: "zoom", kind: "online", url: "https://meet.example.com/x" },
    start: "2026-05-04T09:30:00+02:00",
  };
  await typeJson(page, JSON.stringify(pasted, null, 2));
  // The form follows: the Online branch, its fields filled; the discriminator is read-only.
  await expect(page.locator("#root_venue_url")).toHaveValue("https://meet.example.com/x");
  await expect(page.locator('[id="root_venue__oneof_select"] option:checked')).toHaveText("Online");
  await expect(page.locator("#root_venue_kind")).toHaveAttribute("readonly", "");
  await expect(page.locator("#root_venue_kind")).toHaveValue("online");
  await expect(page.getByTestId("json-state")).toHaveText("sent exactly as written");
  // No default was put back into the editor.
  await expect(page.getByTestId("json-editor")).not.toContainText('"priority"');
  await expect(page.getByTestId("json-editor")).not.toContainText('"durationMinutes"');

  const sent = page.waitForRequest((r) => r.url().endsWith("/api/tools/create_event/run"));
  const args = await runAndCapture(page, request, "success");
  expect(args).toEqual(pasted);
  // Key order as pasted in the request (the run store's jsonb keeps its own order, so compare what was sent).
  expect(JSON.stringify((await sent).postDataJSON().arguments)).toBe(JSON.stringify(pasted));
});

test("optional fields set from the form clear back to unset (select, number, boolean, text, array)", async ({ page }) => {
  await page.goto("/tools/create_event");
  const editor = page.getByTestId("json-preview");
  const priority = page.locator('[id="root_priority"]');
  await priority.selectOption({ label: "high" });
  await expect(editor).toContainText('"priority": "high"');
  await priority.selectOption({ label: "— (default: normal)" });
  await expect(editor).not.toContainText('"priority"');
  // It stays unset: it does not snap back to the default.
  await expect(priority.locator("option:checked")).toHaveText("— (default: normal)");
  await page.locator("#root_title").fill("still unset"); // another edit does not bring it back either
  await expect(editor).toContainText('"still unset"');
  await expect(editor).not.toContainText('"priority"');

  await page.locator("#root_durationMinutes").fill("90");
  await expect(editor).toContainText('"durationMinutes": 90');
  await page.locator("#root_durationMinutes").fill("");
  await expect(editor).not.toContainText('"durationMinutes"');

  const notify = page.locator("#root_notify");
  await notify.click();
  await expect(editor).toContainText('"notify": true');
  await notify.click();
  await expect(editor).toContainText('"notify": false');
  await page.getByRole("button", { name: /Clear Invite attendees/ }).click();
  await expect(editor).not.toContainText('"notify"');
  await expect(notify).toHaveJSProperty("indeterminate", true);

  // A text field emptied is unset, not "".
  await page.locator("#root_notes").fill("Agenda: the roadmap");
  await expect(editor).toContainText('"notes": "Agenda: the roadmap"');
  await page.locator("#root_notes").fill("");
  await expect(editor).not.toContainText('"notes"');
  // An array whose last item is removed is unset, not [].
  await page.locator('[id="root_tags__add"]').click();
  await page.locator("#root_tags_0").fill("design");
  await expect(editor).toContainText('"design"');
  await page.locator('[id="root_tags_0__remove"]').click();
  await expect(page.locator("#root_tags_0")).toHaveCount(0);
  await expect(editor).not.toContainText('"tags"');
  await expect(editor).toContainText('"still unset"'); // the rest stays as set
});

test("a oneOf branch reports only its own errors, beside its fields", async ({ page }) => {
  await page.goto("/tools/create_event");
  await page.locator("#root_title").fill("Empty venue");
  await page.locator("#root_start").fill("2026-12-01T10:00");
  await page.locator("#root_attendees_0_name").fill("Ada");
  await expect(page.locator("#root_venue_kind")).toHaveAttribute("readonly", "");
  await page.getByTestId("run-button").click();
  const output = page.getByTestId("run-output");
  await expect(output).toHaveAttribute("data-status", "rejected");
  const details = output.getByTestId("error-details");
  await expect(details).toContainText("/venue/street is required");
  await expect(details).toContainText("/venue/city is required");
  await expect(details).not.toContainText("/venue/url");
  await expect(details).not.toContainText('"online"');
  await expect(details).not.toContainText("oneOf");
  await expect(page.locator('[id="root_venue_street__error"]')).toContainText("is required");
  await expect(page.locator('[id="root_venue_country__error"]')).toContainText("is required");
  await shot(page, "forms-venue-oneof-errors");

  // Switching to Online shows that branch's fields, the discriminator following.
  await page.locator('[id="root_venue__oneof_select"]').selectOption({ label: "Online" });
  await expect(page.locator("#root_venue_url")).toBeVisible();
  await expect(page.locator("#root_venue_street")).toHaveCount(0);
  await expect(page.locator("#root_venue_kind")).toHaveValue("online");
  await shot(page, "forms-venue-online");
});

test("an anyOf branch reports only its own errors too; pasted JSON picks its branch", async ({ page, request }) => {
  // A tool defined in the runtime config, for its anyOf (no built-in tool has one).
  const before = await (await request.get("/api/config")).json();
  const tool = {
    name: "reach_contact",
    title: "Reach a contact",
    description: "Says how a contact will be reached: by email or by phone.",
    inputSchema: {
      type: "object",
      properties: {
        contact: {
          title: "Contact",
          anyOf: [
            { title: "By email", type: "object", properties: { email: { type: "string", format: "email", title: "Email" } }, required: ["email"] },
            { title: "By phone", type: "object", properties: { phone: { type: "string", pattern: "^\\+[0-9]{6,15}$", title: "Phone" } }, required: ["phone"] },
          ],
        },
      },
      required: ["contact"],
      additionalProperties: false,
    },
    expression: '{"via": $exists(contact.email) ? "email" : "phone"}',
  };
  const text = (before.raw as string).replace(/"tools":\s*\[/, `"tools": [\n    ${JSON.stringify(tool)},`);
  expect(text).not.toBe(before.raw);
  const put = await request.put("/api/config", { data: { text, expectedVersion: before.version } });
  expect(put.status(), await put.text()).toBe(200);
  try {
    await expect.poll(async () => (await request.get("/api/tools/reach_contact")).status(), { timeout: 10_000 }).toBe(200);
    await page.goto("/tools/reach_contact");
    await page.locator('[id="root_contact__anyof_select"]').selectOption({ label: "By phone" });
    await page.locator("#root_contact_phone").fill("12");
    await page.getByTestId("run-button").click();
    const output = page.getByTestId("run-output");
    await expect(output).toHaveAttribute("data-status", "rejected");
    const details = output.getByTestId("error-details");
    await expect(details).toContainText("/contact/phone");
    await expect(details).not.toContainText("/contact/email");
    await expect(details).not.toContainText("anyOf");
    await expect(page.locator('[id="root_contact_phone__error"]')).toContainText(/pattern|match/);
    await shot(page, "forms-contact-anyof-errors");

    // Pasting an email contact into the JSON editor selects the email branch in the form.
    await typeJson(page, '{"contact": {"email": "ada@example.com"}}');
    await expect(page.locator('[id="root_contact__anyof_select"] option:checked')).toHaveText("By email");
    await expect(page.locator("#root_contact_email")).toHaveValue("ada@example.com");
    await page.getByTestId("run-button").click();
    await expect(output).toHaveAttribute("data-status", "success");
    await expect(output).toContainText('"via": "email"');
  } finally {
    const now = await (await request.get("/api/config")).json();
    const restore = await request.put("/api/config", { data: { text: before.raw, expectedVersion: now.version } });
    expect(restore.status()).toBe(200);
  }
});

test("array items are labelled by their title and position", async ({ page }) => {
  await page.goto("/tools/create_event");
  await expect(page.getByText("Person 1", { exact: true })).toBeVisible();
  await page.locator('[id="root_tags__add"]').click();
  await page.locator('[id="root_tags__add"]').click();
  await expect(page.locator('label[for="root_tags_0"]')).toHaveText(/^Tag 1\*?$/); // items are required: "*"
  await expect(page.locator('label[for="root_tags_1"]')).toHaveText(/^Tag 2\*?$/);
  await expect(page.getByText(/Tags-\d/)).toHaveCount(0);
  await page.goto("/tools/chart_png");
  await expect(page.locator('label[for="root_values_0"]')).toContainText("Item 1");
});

test("if/then/else: occurrences appear when the event repeats and go when it does not", async ({ page, request }) => {
  await page.goto("/tools/create_event");
  const editor = page.getByTestId("json-preview");
  await expect(page.locator("#root_occurrences")).toHaveCount(0);
  const repeat = page.locator('[id="root_repeat"]');
  await repeat.selectOption({ label: "weekly" });
  await expect(page.locator("#root_occurrences")).toBeVisible();
  await page.locator("#root_occurrences").fill("6");
  await expect(editor).toContainText('"occurrences": 6');
  await repeat.selectOption({ label: "—" });
  await expect(page.locator("#root_occurrences")).toHaveCount(0);
  await expect(editor).not.toContainText('"occurrences"');
  await expect(editor).not.toContainText('"repeat"');

  // Repeating without occurrences: the server's error lands on the dependent field.
  await fillCreateEventRequired(page);
  await repeat.selectOption({ label: "monthly" });
  await page.getByTestId("run-button").click();
  await expect(page.getByTestId("run-output")).toHaveAttribute("data-status", "rejected");
  await expect(page.getByTestId("error-details")).toContainText("/occurrences is required");
  await expect(page.getByTestId("error-details")).not.toContainText('must match "then" schema');
  await expect(page.locator('[id="root_occurrences__error"]')).toContainText("is required");

  await page.locator("#root_occurrences").fill("3");
  const args = await runAndCapture(page, request, "success");
  expect(args).toMatchObject({ repeat: "monthly", occurrences: 3 });
  await expect(page.getByTestId("content-resource")).toContainText("RRULE:FREQ=MONTHLY;COUNT=3");
});

test("json_query: any-JSON data is a JSON text field that parses", async ({ page, request }) => {
  await page.goto("/tools/json_query");
  await expect(page.getByText(/Unsupported field schema/)).toHaveCount(0);
  const data = page.locator("#root_data");
  await expect(data).toHaveAttribute("data-testid", "json-value-field");
  await data.fill("{oops");
  await expect(page.getByRole("alert").filter({ hasText: "Not valid JSON" })).toBeVisible();
  await expect(data).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("run-button")).toBeDisabled();

  await data.fill('{"orders": [{"total": 120}, {"total": 35}], "none": null}');
  await expect(page.getByTestId("run-button")).toBeEnabled();
  await page.locator("#root_expression").fill("$sum(orders.total)");
  const args = await runAndCapture(page, request, "success");
  // What was typed is the value, null members included.
  expect(args).toEqual({ data: { orders: [{ total: 120 }, { total: 35 }], none: null }, expression: "$sum(orders.total)" });
  await expect(page.getByTestId("run-output")).toContainText("155");
});
