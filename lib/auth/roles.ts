/**
 * Roles, lowest first: each one may do everything the one before it may.
 *   viewer  browse tools, history, audit, inferred shapes; keep their own API tokens
 *   runner  also run tools and keep presets
 *   admin   also servers, config, retention and purge, export, users and everyone's tokens
 */
export const ROLES = ["viewer", "runner", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** What a route or page declares: open to anyone, or the lowest role that may use it. */
export type Access = "public" | Role;

export const isRole = (v: unknown): v is Role => typeof v === "string" && (ROLES as readonly string[]).includes(v);

export const roleRank = (r: Role): number => ROLES.indexOf(r);

export const roleAtLeast = (have: Role, need: Role): boolean => roleRank(have) >= roleRank(need);

export const lowerRole = (a: Role, b: Role): Role => (roleRank(a) <= roleRank(b) ? a : b);

export const higherRole = (a: Role, b: Role): Role => (roleRank(a) >= roleRank(b) ? a : b);

/** A stored role string, read defensively: anything unknown counts as the lowest role. */
export const asRole = (v: unknown): Role => (isRole(v) ? v : "viewer");
