import { LOG_LEVELS, type LogLevel, type LogMessage } from "../tools/define";

/**
 * A server's log message (`notifications/message`) as the studio passes it on: the level checked
 * against the MCP levels, the logger name bounded, the data kept when its JSON is small enough
 * (else replaced by a note of its size). The server is untrusted; nothing else it sent is kept.
 */
export const MAX_LOG_DATA_CHARS = 16_384;

export const isLogLevel = (v: unknown): v is LogLevel => typeof v === "string" && (LOG_LEVELS as readonly string[]).includes(v);

export function toLogMessage(params: unknown, server: string): LogMessage | null {
  if (typeof params !== "object" || params === null) return null;
  const p = params as Record<string, unknown>;
  if (!isLogLevel(p.level)) return null;
  let json: string | undefined;
  try {
    json = JSON.stringify(p.data);
  } catch {
    json = undefined;
  }
  const data =
    json === undefined
      ? null
      : json.length <= MAX_LOG_DATA_CHARS
        ? (JSON.parse(json) as unknown)
        : `[log data of ${json.length} characters left out by the studio]`;
  const logger = typeof p.logger === "string" && p.logger ? p.logger.slice(0, 200) : server;
  return { level: p.level, logger, data };
}

/** Whether a message at `level` passes a threshold of `min`. */
export const logLevelAtLeast = (level: LogLevel, min: LogLevel): boolean => LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(min);
