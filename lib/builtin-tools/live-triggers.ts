import { isUsableTriggerName } from "../triggers/names";

/** Config names as trigger phrases: lowercase, trimmed, de-duplicated; names too short to be unambiguous are dropped. */
export function liveNames(names: string[]): string[] {
  return [...new Set(names.filter(isUsableTriggerName).map((n) => n.trim().toLowerCase()))];
}
