import { describe, expect, it } from "vitest";
import { decodeKeyset, encodeKeyset } from "./cursor";

const KEY = /^[1-9][0-9]{0,17}$/;
const b64 = (s: string) => Buffer.from(s).toString("base64url");

describe("keyset cursors", () => {
  it("takes back every cursor it writes, across the years PostgreSQL stores", () => {
    for (const year of [1, 99, 1000, 1970, 2026, 9999]) {
      for (const ms of [0, 1, 999, 86_399_999]) {
        const at = new Date(Date.UTC(year, 0, 1) + ms);
        at.setUTCFullYear(year);
        const c = encodeKeyset(at, "42");
        expect(decodeKeyset(c, KEY)).toEqual({ at, key: "42" });
      }
    }
  });

  it("refuses any cursor it would not write", () => {
    const good = "2024-01-01T00:00:00.000Z";
    const refused = [
      // Dates JavaScript's Date holds and PostgreSQL does not, and dates no calendar has.
      ...[
        "-271821-04-20T00:00:00.000Z",
        "+275760-09-13T00:00:00.000Z",
        "0000-01-01T00:00:00.000Z",
        "+010000-01-01T00:00:00.000Z",
        "2024-02-30T00:00:00.000Z",
        "2023-02-29T00:00:00.000Z",
        "2024-01-01T24:00:00.000Z",
        "2024-13-01T00:00:00.000Z",
        "2024-01-01T00:00:60.000Z",
        "2024-01-01",
        "2024-01-01T00:00:00Z",
        "2024-01-01T00:00:00.000+00:00",
        "1e20",
        "",
      ].map((iso) => b64(`${iso}|1`)),
      // The key is not of the form, or the parts are not two.
      b64(`${good}|0`),
      b64(`${good}|01`),
      b64(`${good}|${"9".repeat(19)}`),
      b64(`${good}|`),
      b64(`${good}|1|2`),
      b64(good),
      b64(`|1`),
      b64(`${good}|1\u0000`),
      // Not the studio's encoding of the same text.
      `${b64(`${good}|1`)}=`,
      Buffer.from(`${good}|1`).toString("base64"),
      `${b64(`${good}|1`)}A`,
      `${b64(`${good}|1`)}.`,
      "",
      "garbage!",
      "%00",
      "z".repeat(5000),
    ];
    for (const c of refused) expect(decodeKeyset(c, KEY), JSON.stringify(c.slice(0, 80))).toBeNull();
  });
});
