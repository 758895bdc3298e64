import type { Logger } from "../../src/lib/log.ts";

/**
 * Makes `log` push each line it is given at these levels to `lines` (as `{msg, ...fields}`) instead
 * of writing it; `info` includes the request log line. Returns what puts the logger back.
 */
export function collectLog(
  log: Logger,
  lines: Record<string, unknown>[],
  levels: ("info" | "warn" | "error")[] = ["info", "error"],
): () => void {
  const kept = { ...log };
  for (const level of levels) log[level] = (msg, fields) => lines.push({ msg, ...fields });
  if (levels.includes("info")) log.request = (fields) => lines.push({ msg: "request", ...fields });
  return () => Object.assign(log, kept);
}
