import { describe, expect, it } from "vitest";
import { ToolError } from "@/lib/tools/errors";
import type { EmbeddedResource } from "@/lib/tools/output";
import { createEventTool, escapeIcsText, foldIcsLine, formatWithOffset, parseDateTime, slugify } from "@/lib/builtin-tools/create-event";
import { call, strictAjv } from "@/tests/helpers/builtin-tools";

const sample = {
  title: "Quarterly planning, Q3",
  start: "2026-05-04T09:30:00+02:00",
  durationMinutes: 90,
  venue: { kind: "in_person", name: "HQ; room 4.12", street: "Hauptstraße 5", postalCode: "10115", city: "Berlin", country: "Germany" },
  attendees: [
    { name: "Ada Lovelace", email: "ada@example.com", role: "organizer" },
    { name: "Grace Hopper", email: "grace@example.com", role: "speaker" },
    { name: "Alan Turing", email: "alan@example.com" },
    { name: "Walk-in guest", role: "optional" },
  ],
  tags: ["planning", "q3"],
  priority: "high",
  notify: true,
  notes: "Agenda:\n1. Review; 2. Plan, 3. Wrap up",
};

type Summary = {
  slug: string;
  uid: string;
  start: string;
  end: string;
  startLocal: string;
  endLocal: string;
  attendeeCount: number;
  roles: Record<string, number>;
  organizer: string | null;
  invitations: number;
  icsUri: string;
  warnings: string[];
  venue: { kind: string; location: string; url?: string };
};

async function plan(args: Record<string, unknown>) {
  const out = await call(createEventTool, args);
  const resource = out.content.find((b) => b.type === "resource") as EmbeddedResource;
  const ics = "text" in resource.resource ? resource.resource.text : "";
  return { out, summary: out.structuredContent as Summary, resource, ics };
}

/** The parts of create_event's input schema the schema test reads. */
type EventSchemaView = {
  $schema: string;
  $defs: { person: { required: string[] } };
  properties: {
    attendees: { items: unknown };
    venue: { oneOf: { properties: { kind: { const: string } } }[] };
    durationMinutes: unknown;
    priority: { default: unknown };
    notify: { default: unknown };
    tags: { uniqueItems: unknown };
  };
};

/** Unfolds iCalendar lines (RFC 5545 §3.1). */
const unfold = (ics: string) => ics.replace(/\r\n /g, "").split("\r\n");

describe("create_event schema", () => {
  it("compiles with Ajv 2020-12 (strict) and accepts a sample event", () => {
    const ajv = strictAjv();
    const validate = ajv.compile(createEventTool.spec.inputSchema);
    expect(validate(sample), JSON.stringify(validate.errors)).toBe(true);
    expect(ajv.compile(createEventTool.spec.outputSchema!)).toBeTypeOf("function");
  });

  it("uses $defs, $ref, oneOf with const discriminators, formats and defaults", () => {
    const schema = createEventTool.spec.inputSchema as EventSchemaView;
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$defs.person.required).toEqual(["name"]);
    expect(schema.properties.attendees.items).toEqual({ $ref: "#/$defs/person" });
    expect(schema.properties.venue.oneOf.map((v) => v.properties.kind.const)).toEqual(["in_person", "online"]);
    expect(schema.properties.durationMinutes).toMatchObject({ default: 60, minimum: 5 });
    expect(schema.properties.priority.default).toBe("normal");
    expect(schema.properties.notify.default).toBe(true);
    expect(schema.properties.tags.uniqueItems).toBe(true);
  });

  it("rejects invalid events", () => {
    const validate = strictAjv().compile(createEventTool.spec.inputSchema);
    const bad = (patch: Record<string, unknown>) => validate({ ...sample, ...patch });
    expect(bad({ attendees: [] })).toBe(false);
    expect(bad({ attendees: [{ name: "X", email: "not-an-email" }] })).toBe(false);
    expect(bad({ attendees: [{ email: "x@example.com" }] })).toBe(false);
    expect(bad({ start: "next tuesday" })).toBe(false);
    expect(bad({ durationMinutes: 1 })).toBe(false);
    expect(bad({ tags: ["a", "a"] })).toBe(false);
    expect(bad({ notes: "x".repeat(2001) })).toBe(false);
    expect(bad({ venue: { kind: "online", url: "not a uri", platform: "zoom" } })).toBe(false);
    expect(bad({ venue: { kind: "online", url: "https://meet.example.com/x", platform: "zoom", city: "Berlin" } })).toBe(false);
    expect(bad({ venue: { kind: "in_person", street: "x", city: "y", country: "Atlantis" } })).toBe(false);
    expect(bad({ venue: { kind: "online", url: "https://meet.example.com/x", platform: "jitsi" } })).toBe(true);
  });

  it("asks for occurrences only when the event repeats (if/then)", () => {
    const validate = strictAjv().compile(createEventTool.spec.inputSchema);
    expect(validate({ ...sample, repeat: "weekly", occurrences: 4 })).toBe(true);
    expect(validate({ ...sample, repeat: "weekly" })).toBe(false);
    expect(validate({ ...sample, occurrences: 4 })).toBe(false);
    expect(validate({ ...sample, extra: 1 })).toBe(false);
  });
});

describe("create_event", () => {
  it("computes the end time and summarises the event", async () => {
    const { summary, out } = await plan(sample);
    expect(summary.start).toBe("2026-05-04T07:30:00.000Z");
    expect(summary.end).toBe("2026-05-04T09:00:00.000Z");
    expect(summary.startLocal).toBe("2026-05-04T09:30:00+02:00");
    expect(summary.endLocal).toBe("2026-05-04T11:00:00+02:00");
    expect(summary.attendeeCount).toBe(4);
    expect(summary.roles).toEqual({ organizer: 1, speaker: 1, attendee: 1, optional: 1 });
    expect(summary.organizer).toBe("Ada Lovelace <ada@example.com>");
    expect(summary.invitations).toBe(3);
    expect(summary.slug).toBe("2026-05-04-quarterly-planning-q3");
    expect(summary.icsUri).toBe("event://2026-05-04-quarterly-planning-q3.ics");
    expect(summary.venue.location).toBe("HQ; room 4.12, Hauptstraße 5, 10115 Berlin, Germany");
    expect(summary.warnings).toEqual([expect.stringMatching(/Walk-in guest/)]);
    const validate = strictAjv().compile(createEventTool.spec.outputSchema!);
    expect(validate(out.structuredContent), JSON.stringify(validate.errors)).toBe(true);
  });

  it("takes the Start its help describes: the form's UTC time (a datetime-local sent in UTC) and an API offset", async () => {
    const help = (createEventTool.spec.inputSchema as { properties: { start: { description: string } } }).properties.start.description;
    expect(help).toMatch(/In the form: your local date and time \(sent in UTC\)/);
    // What the form's date-time widget sends (RJSF localToUTC: no offset of the user's own).
    const fromForm = await plan({ ...sample, start: new Date(2026, 4, 4, 9, 30).toISOString() });
    expect(fromForm.summary.start).toBe(new Date(2026, 4, 4, 9, 30).toISOString());
    expect(fromForm.summary.warnings.join(" ")).not.toMatch(/no UTC offset/);
    expect((await plan(sample)).summary.startLocal).toBe("2026-05-04T09:30:00+02:00");
  });

  it("returns the invitation as an embedded text/calendar resource", async () => {
    const { resource, ics, summary } = await plan(sample);
    expect(resource.resource.uri).toBe(summary.icsUri);
    expect(resource.resource.mimeType).toBe("text/calendar");
    expect(ics.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
    expect(ics.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(ics.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of ics.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);

    const lines = unfold(ics);
    expect(lines).toContain("METHOD:REQUEST");
    expect(lines).toContain("DTSTART:20260504T073000Z");
    expect(lines).toContain("DTEND:20260504T090000Z");
    expect(lines).toContain("SUMMARY:Quarterly planning\\, Q3");
    expect(lines).toContain("LOCATION:HQ\\; room 4.12\\, Hauptstraße 5\\, 10115 Berlin\\, Germany");
    expect(lines).toContain("PRIORITY:3");
    expect(lines).toContain("CATEGORIES:planning,q3");
    expect(lines).toContain("ORGANIZER;CN=Ada Lovelace:mailto:ada@example.com");
    expect(lines).toContain("ATTENDEE;CN=Grace Hopper;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:grace@example.com");
    expect(lines).toContain("ATTENDEE;CN=Ada Lovelace;ROLE=CHAIR;PARTSTAT=NEEDS-ACTION;RSVP=TRUE:mailto:ada@example.com");
    expect(lines.filter((l) => l.startsWith("ATTENDEE"))).toHaveLength(3);
    expect(lines.find((l) => l.startsWith("DESCRIPTION:"))).toBe("DESCRIPTION:Agenda:\\n1. Review\\; 2. Plan\\, 3. Wrap up\\n\\nAlso attending: Walk-in guest");
    expect(lines.find((l) => l.startsWith("UID:"))).toBe(`UID:${summary.uid}`);
    expect(lines.filter((l) => l === "BEGIN:VEVENT")).toHaveLength(1);
  });

  it("gives the same event the same UID", async () => {
    const a = await plan(sample);
    const b = await plan(sample);
    expect(a.summary.uid).toBe(b.summary.uid);
    const c = await plan({ ...sample, start: "2026-05-05T09:30:00+02:00" });
    expect(c.summary.uid).not.toBe(a.summary.uid);
  });

  it("plans online events with the defaults", async () => {
    const { summary, ics } = await plan({
      title: "Stand-up",
      start: "2026-12-31T23:30:00Z",
      venue: { kind: "online", url: "https://meet.example.com/abc", platform: "google_meet" },
      attendees: [{ name: "Solo" }],
    });
    expect(summary.end).toBe("2027-01-01T00:30:00.000Z");
    expect(summary.venue).toEqual({ kind: "online", location: "Google Meet: https://meet.example.com/abc", url: "https://meet.example.com/abc" });
    expect(summary).toMatchObject({ invitations: 0, organizer: null, priority: "normal", notify: true, tags: [] });
    const lines = unfold(ics);
    expect(lines).toContain("METHOD:PUBLISH");
    expect(lines).toContain("URL:https://meet.example.com/abc");
    expect(lines).toContain("PRIORITY:5");
    expect(summary.warnings.some((w) => /No organizer/.test(w))).toBe(true);
  });

  it("does not ask for replies when notify is off", async () => {
    const { ics, summary } = await plan({ ...sample, notify: false });
    expect(summary.invitations).toBe(0);
    expect(unfold(ics)).toContain("METHOD:PUBLISH");
    expect(ics).toMatch(/RSVP=FALSE/);
    expect(ics).not.toMatch(/RSVP=TRUE/);
  });

  it("repeats the event with an RRULE", async () => {
    const { ics } = await plan({ ...sample, repeat: "weekly", occurrences: 6 });
    expect(unfold(ics)).toContain("RRULE:FREQ=WEEKLY;COUNT=6");
    expect(unfold((await plan(sample)).ics).some((l) => l.startsWith("RRULE"))).toBe(false);
  });

  it("refuses repeated attendee emails", async () => {
    const err = await call(createEventTool, {
      ...sample,
      attendees: [...sample.attendees, { name: "Ada again", email: "ADA@example.com" }],
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("invalid_args");
    expect(err.fields).toEqual([{ path: "/attendees/4/email", message: expect.stringMatching(/attendee 1/) }]);
  });
});

describe("iCalendar helpers", () => {
  it("parses RFC 3339 date-times exactly", () => {
    expect(parseDateTime("2026-05-04T09:30:00+02:00")).toEqual({ epochMs: Date.UTC(2026, 4, 4, 7, 30), offsetMinutes: 120, hasOffset: true });
    expect(parseDateTime("2026-05-04T09:30:00.250Z")?.epochMs).toBe(Date.UTC(2026, 4, 4, 9, 30, 0, 250));
    expect(parseDateTime("2026-05-04t09:30:00-05:30")?.epochMs).toBe(Date.UTC(2026, 4, 4, 15, 0));
    expect(parseDateTime("2026-02-30T00:00:00Z")).toBeNull();
    expect(parseDateTime("2026-05-04")).toBeNull();
  });

  it("formats in an offset", () => {
    expect(formatWithOffset(Date.UTC(2026, 0, 1, 0, 15), -90)).toBe("2025-12-31T22:45:00-01:30");
    expect(formatWithOffset(Date.UTC(2026, 0, 1), 0)).toBe("2026-01-01T00:00:00Z");
  });

  it("escapes and folds", () => {
    expect(escapeIcsText("a,b;c\\d\r\ne")).toBe("a\\,b\\;c\\\\d\\ne");
    const long = `DESCRIPTION:${"é".repeat(100)}`;
    const folded = foldIcsLine(long);
    for (const line of folded.split("\r\n")) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, "")).toBe(long);
  });

  it("slugifies", () => {
    expect(slugify("Café Crème — Brainstorm!")).toBe("cafe-creme-brainstorm");
    expect(slugify("???")).toBe("event");
    expect(slugify("design review with a very long title to show folding in action")).toBe("design-review-with-a-very-long-title-to-show");
    expect(slugify("x".repeat(60))).toBe("x".repeat(48));
  });
});
