/** Config names (channel aliases, group names) used as trigger phrases need at least this many characters (code points). */
export const MIN_TRIGGER_NAME_CHARS = 3;

/** One rule for the server (live triggers) and the UI (the Settings warning): code points, not UTF-16 units. */
export function isUsableTriggerName(name: string): boolean {
  return [...name.trim()].length >= MIN_TRIGGER_NAME_CHARS;
}
