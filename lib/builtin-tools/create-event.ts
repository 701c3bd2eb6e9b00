import { createHash } from "node:crypto";
import { defineTool } from "../tools/define";
import { ToolError, type FieldError } from "../tools/errors";
import { structured, type EmbeddedResource } from "../tools/output";

export const COUNTRIES = [
  "Argentina",
  "Australia",
  "Austria",
  "Belgium",
  "Brazil",
  "Canada",
  "Chile",
  "China",
  "Colombia",
  "Czechia",
  "Denmark",
  "Egypt",
  "Finland",
  "France",
  "Germany",
  "Greece",
  "India",
  "Indonesia",
  "Ireland",
  "Israel",
  "Italy",
  "Japan",
  "Kenya",
  "Mexico",
  "Morocco",
  "Netherlands",
  "New Zealand",
  "Nigeria",
  "Norway",
  "Philippines",
  "Poland",
  "Portugal",
  "Singapore",
  "South Africa",
  "South Korea",
  "Spain",
  "Sweden",
  "Switzerland",
  "Thailand",
  "Turkey",
  "Ukraine",
  "United Arab Emirates",
  "United Kingdom",
  "United States",
  "Vietnam",
  "Other",
] as const;

const PRIORITY_TO_ICS = { urgent: 1, high: 3, normal: 5, low: 9 } as const;
const ROLE_TO_ICS = { organizer: "CHAIR", speaker: "REQ-PARTICIPANT", attendee: "REQ-PARTICIPANT", optional: "OPT-PARTICIPANT" } as const;
const PLATFORM_NAMES = {
  zoom: "Zoom",
  google_meet: "Google Meet",
  teams: "Microsoft Teams",
  jitsi: "Jitsi Meet",
  webex: "Webex",
  other: "Online",
} as const;

// ---------- time ----------

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:?\d{2})?$/;

export interface ParsedDateTime {
  /** Milliseconds since the epoch. */
  epochMs: number;
  /** Offset from UTC in minutes, as written (0 for Z or none). */
  offsetMinutes: number;
  /** Whether the input carried an explicit offset. */
  hasOffset: boolean;
}

/** Parses an RFC 3339 date-time exactly (Date.parse guesses the local zone when there is no offset). */
export function parseDateTime(s: string): ParsedDateTime | null {
  const m = DATE_TIME.exec(s);
  if (!m) return null;
  const [, y, mo, d, h, mi, sec = "0", frac = "", tz] = m;
  const year = +y,
    month = +mo,
    day = +d,
    hour = +h,
    minute = +mi;
  let second = +sec;
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  if (second === 60) second = 59; // a leap second: calendars cannot hold it
  let offsetMinutes = 0;
  if (tz && tz.toUpperCase() !== "Z") {
    const sign = tz[0] === "-" ? -1 : 1;
    const digits = tz.slice(1).replace(":", "");
    const oh = +digits.slice(0, 2),
      om = +digits.slice(2);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const ms = frac ? Math.round(Number(`0${frac}`) * 1000) : 0;
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, ms);
  return { epochMs: utc.getTime() - offsetMinutes * 60_000, offsetMinutes, hasOffset: Boolean(tz) };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** RFC 3339 in the given offset, to the second: 2026-05-04T09:30:00+02:00. */
export function formatWithOffset(epochMs: number, offsetMinutes: number): string {
  const d = new Date(epochMs + offsetMinutes * 60_000);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const abs = Math.abs(offsetMinutes);
  const zone = offsetMinutes === 0 ? "Z" : `${offsetMinutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${date}T${time}${zone}`;
}

/** iCalendar UTC date-time: 20260504T073000Z. */
const icsDateTime = (epochMs: number) => formatWithOffset(epochMs, 0).replace(/[-:]/g, "");

// ---------- iCalendar text ----------

/** Escapes a TEXT value (RFC 5545 §3.3.11). */
export function escapeIcsText(s: string): string {
  return (
    s
      .replace(/\r\n?/g, "\n")
      // eslint-disable-next-line no-control-regex -- RFC 5545 TEXT may not hold control characters (newlines are kept, escaped below)
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "")
      .replace(/\\/g, "\\\\")
      .replace(/;/g, "\\;")
      .replace(/,/g, "\\,")
      .replace(/\n/g, "\\n")
  );
}

/** A parameter value, quoted when it holds : ; or , (double quotes are not allowed inside). */
function icsParam(s: string): string {
  // eslint-disable-next-line no-control-regex -- RFC 5545 parameter values may not hold control characters
  const clean = s.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/"/g, "'");
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/** Folds a content line to at most 75 octets per line, never inside a UTF-8 character (RFC 5545 §3.1). */
export function foldIcsLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, "utf8");
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with a space
    if (octets + size > limit) {
      out.push(current);
      current = "";
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

/** A URL-safe slug: "2026-05-04-team-offsite". */
export function slugify(s: string, maxLength = 48): string {
  const slug = s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= maxLength) return slug || "event";
  // Cut at a word boundary when one is reasonably close to the limit.
  const cut = slug.slice(0, maxLength + 1);
  const boundary = cut.lastIndexOf("-");
  return (boundary >= maxLength / 2 ? cut.slice(0, boundary) : slug.slice(0, maxLength)).replace(/-+$/g, "");
}

// ---------- the tool ----------

export const createEventTool = defineTool({
  name: "create_event",
  title: "Plan an event",
  description:
    "Plans a meeting or event: checks the details, works out the end time, and returns a summary with an " +
    "iCalendar (.ics) invitation that can be imported into any calendar. The venue is either an in-person " +
    "address or an online meeting link; it can repeat daily, weekly or monthly. Nothing is sent or stored: the " +
    "invitation is only returned.",
  inputSchema: {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    title: "Event",
    $defs: {
      person: {
        type: "object",
        title: "Person",
        properties: {
          name: { type: "string", title: "Name", minLength: 1, maxLength: 120 },
          email: { type: "string", title: "Email", format: "email", maxLength: 254 },
          role: {
            type: "string",
            title: "Role",
            enum: ["organizer", "speaker", "attendee", "optional"],
            default: "attendee",
            description: "Organizers chair the event; optional attendees need not come.",
          },
        },
        required: ["name"],
        additionalProperties: false,
      },
    },
    properties: {
      title: { type: "string", title: "Title", minLength: 1, maxLength: 200, examples: ["Quarterly planning"] },
      start: {
        type: "string",
        title: "Start",
        format: "date-time",
        // The form's date-time widget takes a local time without an offset and sends it in UTC: the help says so.
        description:
          "When it starts. In the form: your local date and time (sent in UTC). Through the API: RFC 3339 with any offset, e.g. 2026-05-04T09:30:00+02:00 (startLocal keeps it).",
        examples: ["2026-05-04T09:30:00+02:00"],
      },
      durationMinutes: { type: "integer", title: "Duration (minutes)", minimum: 5, maximum: 10_080, default: 60 },
      venue: {
        type: "object",
        title: "Venue",
        oneOf: [
          {
            type: "object",
            title: "In person",
            properties: {
              kind: { type: "string", const: "in_person", title: "Kind", default: "in_person" },
              name: { type: "string", title: "Place name", maxLength: 200, examples: ["Main office, room 4.12"] },
              street: { type: "string", title: "Street", minLength: 1, maxLength: 200 },
              postalCode: { type: "string", title: "Postal code", maxLength: 20 },
              city: { type: "string", title: "City", minLength: 1, maxLength: 100 },
              country: { type: "string", title: "Country", enum: COUNTRIES },
            },
            required: ["kind", "street", "city", "country"],
            additionalProperties: false,
          },
          {
            type: "object",
            title: "Online",
            properties: {
              kind: { type: "string", const: "online", title: "Kind", default: "online" },
              url: { type: "string", title: "Meeting link", format: "uri", maxLength: 2000 },
              platform: {
                type: "string",
                title: "Platform",
                enum: ["zoom", "google_meet", "teams", "jitsi", "webex", "other"],
                default: "other",
              },
            },
            required: ["kind", "url", "platform"],
            additionalProperties: false,
          },
        ],
      },
      attendees: {
        type: "array",
        title: "Attendees",
        items: { $ref: "#/$defs/person" },
        minItems: 1,
        maxItems: 50,
      },
      tags: {
        type: "array",
        title: "Tags",
        items: { type: "string", title: "Tag", minLength: 1, maxLength: 40 },
        uniqueItems: true,
        maxItems: 20,
      },
      priority: { type: "string", title: "Priority", enum: ["low", "normal", "high", "urgent"], default: "normal" },
      notify: {
        type: "boolean",
        title: "Invite attendees",
        default: true,
        description: "Ask attendees with an email to reply (RSVP); off publishes the event without asking.",
      },
      notes: { type: "string", title: "Notes", maxLength: 2000, description: "Agenda or other details for the invitation." },
      repeat: {
        type: "string",
        title: "Repeat",
        enum: ["daily", "weekly", "monthly"],
        description: "Leave unset for a one-off event; set, it asks how many times.",
      },
    },
    required: ["title", "start", "venue", "attendees"],
    // A repeating event needs its number of occurrences, and only a repeating one may have it.
    if: { properties: { repeat: { type: "string" } }, required: ["repeat"] },
    then: {
      properties: {
        occurrences: { type: "integer", title: "Occurrences", minimum: 2, maximum: 500, description: "How many times in all, the first included." },
      },
      required: ["occurrences"],
    },
    // unevaluatedProperties (not additionalProperties) so the `then` branch's property is allowed.
    unevaluatedProperties: false,
  },
  outputSchema: {
    type: "object",
    properties: {
      slug: { type: "string" },
      uid: { type: "string", description: "The iCalendar UID: the same event planned again gets the same UID." },
      title: { type: "string" },
      start: { type: "string", format: "date-time", description: "Start in UTC." },
      end: { type: "string", format: "date-time", description: "End in UTC." },
      startLocal: { type: "string", format: "date-time", description: "Start in the offset it was given in." },
      endLocal: { type: "string", format: "date-time", description: "End in the offset the start was given in." },
      durationMinutes: { type: "integer" },
      venue: {
        type: "object",
        properties: {
          kind: { type: "string", enum: ["in_person", "online"] },
          location: { type: "string" },
          url: { type: "string" },
        },
        required: ["kind", "location"],
        additionalProperties: false,
      },
      attendeeCount: { type: "integer", minimum: 1 },
      roles: {
        type: "object",
        properties: {
          organizer: { type: "integer" },
          speaker: { type: "integer" },
          attendee: { type: "integer" },
          optional: { type: "integer" },
        },
        required: ["organizer", "speaker", "attendee", "optional"],
        additionalProperties: false,
      },
      organizer: { type: ["string", "null"], description: "The organizer named in the invitation, if any." },
      invitations: { type: "integer", description: "How many attendees the invitation asks to reply." },
      priority: { type: "string", enum: ["low", "normal", "high", "urgent"] },
      notify: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
      icsUri: { type: "string" },
      warnings: { type: "array", items: { type: "string" } },
    },
    required: [
      "slug",
      "uid",
      "title",
      "start",
      "end",
      "startLocal",
      "endLocal",
      "durationMinutes",
      "venue",
      "attendeeCount",
      "roles",
      "organizer",
      "invitations",
      "priority",
      "notify",
      "tags",
      "icsUri",
      "warnings",
    ],
    additionalProperties: false,
  },
  annotations: {
    title: "Plan an event",
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  invocationTriggers: ["plan an event", "schedule a meeting", "create calendar invite", "ics file", "book a meeting"],
  timeoutMs: 5_000,
  async run(args) {
    const { title, start, venue, attendees, tags = [], notes, repeat } = args;
    const occurrences = "occurrences" in args ? args.occurrences : undefined;
    const durationMinutes = args.durationMinutes ?? 60;
    const priority = args.priority ?? "normal";
    const notify = args.notify ?? true;

    const fields: FieldError[] = [];
    const parsed = parseDateTime(start);
    if (!parsed) fields.push({ path: "/start", message: "is not a valid RFC 3339 date-time" });
    const seen = new Map<string, number>();
    attendees.forEach((p, i) => {
      if (!p.email) return;
      const key = p.email.trim().toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) fields.push({ path: `/attendees/${i}/email`, message: `repeats the email of attendee ${first + 1}` });
      else seen.set(key, i);
    });
    if (!title.trim()) fields.push({ path: "/title", message: "must not be blank" });
    if (fields.length || !parsed) {
      throw new ToolError("invalid_args", `The event cannot be planned: ${fields.map((f) => `${f.path} ${f.message}`).join("; ")}.`, { fields });
    }
    const startMs = parsed.epochMs;
    const endMs = startMs + durationMinutes * 60_000;
    if (new Date(endMs).getUTCFullYear() > 9999 || new Date(startMs).getUTCFullYear() < 1) {
      throw new ToolError("invalid_args", "The event must start and end between the years 1 and 9999.", {
        fields: [{ path: "/start", message: "out of range" }],
      });
    }

    const warnings: string[] = [];
    if (!parsed.hasOffset) warnings.push("The start had no UTC offset, so it was read as UTC.");

    // Venue.
    let location: string;
    let url: string | undefined;
    if (venue.kind === "in_person") {
      const cityLine = [venue.postalCode, venue.city].filter(Boolean).join(" ");
      location = [venue.name, venue.street, cityLine, venue.country === "Other" ? undefined : venue.country]
        .filter((part): part is string => Boolean(part && part.trim()))
        .join(", ");
    } else {
      url = venue.url;
      location = `${PLATFORM_NAMES[venue.platform]}: ${venue.url}`;
    }

    // People.
    const roles = { organizer: 0, speaker: 0, attendee: 0, optional: 0 };
    for (const p of attendees) roles[p.role ?? "attendee"]++;
    const organizer = attendees.find((p) => p.role === "organizer" && p.email);
    const withoutEmail = attendees.filter((p) => !p.email);
    if (withoutEmail.length) {
      warnings.push(
        `${withoutEmail.length} attendee${withoutEmail.length === 1 ? " has" : "s have"} no email and cannot be invited: ` +
          withoutEmail.map((p) => p.name).join(", ") +
          ".",
      );
    }
    const invite = notify && Boolean(organizer);
    if (notify && !organizer) {
      warnings.push("No organizer with an email is listed, so the event is published without asking attendees to reply.");
    }
    const invited = attendees.filter((p) => p.email);

    // Identity.
    const slug = `${formatWithOffset(startMs, parsed.offsetMinutes).slice(0, 10)}-${slugify(title)}`;
    const hash = createHash("sha256")
      .update(JSON.stringify([title.trim(), startMs, location]))
      .digest("hex")
      .slice(0, 16);
    const uid = `${slug}-${hash}@tool-studio`;
    const icsUri = `event://${slug}.ics`;

    // The iCalendar document.
    const description = [
      notes?.trim(),
      url ? `Join: ${url}` : undefined,
      withoutEmail.length ? `Also attending: ${withoutEmail.map((p) => p.name).join(", ")}` : undefined,
    ]
      .filter(Boolean)
      .join("\n\n");
    const lines = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Tool Studio//create_event//EN",
      "CALSCALE:GREGORIAN",
      `METHOD:${invite ? "REQUEST" : "PUBLISH"}`,
      "BEGIN:VEVENT",
      `UID:${uid}`,
      `DTSTAMP:${icsDateTime(Date.now())}`,
      `DTSTART:${icsDateTime(startMs)}`,
      `DTEND:${icsDateTime(endMs)}`,
      `SUMMARY:${escapeIcsText(title.trim())}`,
      ...(description ? [`DESCRIPTION:${escapeIcsText(description)}`] : []),
      `LOCATION:${escapeIcsText(location)}`,
      ...(url ? [`URL:${url}`] : []),
      ...(repeat ? [`RRULE:FREQ=${repeat.toUpperCase()};COUNT=${occurrences}`] : []),
      `PRIORITY:${PRIORITY_TO_ICS[priority]}`,
      ...(tags.length ? [`CATEGORIES:${tags.map(escapeIcsText).join(",")}`] : []),
      ...(organizer ? [`ORGANIZER;CN=${icsParam(organizer.name)}:mailto:${organizer.email}`] : []),
      ...invited.map(
        (p) =>
          [
            "ATTENDEE",
            `CN=${icsParam(p.name)}`,
            `ROLE=${ROLE_TO_ICS[p.role ?? "attendee"]}`,
            "PARTSTAT=NEEDS-ACTION",
            `RSVP=${invite ? "TRUE" : "FALSE"}`,
          ].join(";") + `:mailto:${p.email}`,
      ),
      "STATUS:CONFIRMED",
      "SEQUENCE:0",
      "TRANSP:OPAQUE",
      "END:VEVENT",
      "END:VCALENDAR",
    ];
    const ics = lines.map(foldIcsLine).join("\r\n") + "\r\n";

    const summary = {
      slug,
      uid,
      title: title.trim(),
      start: new Date(startMs).toISOString(),
      end: new Date(endMs).toISOString(),
      startLocal: formatWithOffset(startMs, parsed.offsetMinutes),
      endLocal: formatWithOffset(endMs, parsed.offsetMinutes),
      durationMinutes,
      venue: { kind: venue.kind, location, ...(url ? { url } : {}) },
      attendeeCount: attendees.length,
      roles,
      organizer: organizer ? `${organizer.name} <${organizer.email}>` : null,
      invitations: invite ? invited.length : 0,
      priority,
      notify,
      tags,
      icsUri,
      warnings,
    };
    const resource: EmbeddedResource = { type: "resource", resource: { uri: icsUri, mimeType: "text/calendar", text: ics } };
    return structured(summary, [resource]);
  },
});
