import { writeSync } from "node:fs";
import type { LogLevel } from "../config.ts";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** The one `info` line of each request: `info("request", line)`, written without an object to stringify. */
  request(line: RequestLine): void;
}

/** What the request log line says, in this order. */
export interface RequestLine {
  method: string;
  route: string | null;
  status: number;
  durationMs: number;
  org: string | null;
  caller: string | null;
  requestId: string;
}

// Debug and info lines (one per request) are batched: one write every few milliseconds instead of
// a system call per request. Warnings and errors go out at once. The batch is flushed at exit.
const FLUSH_MS = 25;
let pending = "";
let scheduled = false;

function flush() {
  scheduled = false;
  if (pending === "") return;
  const out = pending;
  pending = "";
  try {
    writeSync(1, out);
  } catch {
    // stdout closed: losing access-log lines must not take the server down
  }
}
process.on("exit", flush);

let stampedAt = Number.NaN;
let stamp = "";

/** The ISO time of the current millisecond, formatted once per millisecond (many lines share one). */
function isoNow(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = new Date(now).toISOString();
  }
  return stamp;
}

/**
 * One JSON object per line: debug and info on stdout, warn and error on stderr. Callers never pass
 * secrets, nor fields named `time`, `level` or `msg`. The line is written as text around the fields'
 * own JSON rather than by copying them into a new object first: this runs once per request.
 */
export function createLogger(level: LogLevel): Logger {
  const threshold = ORDER[level];
  const write = (lvl: Exclude<LogLevel, "silent">) => (msg: string, fields?: LogFields) => {
    if (ORDER[lvl] < threshold) return;
    const rest = fields === undefined ? "{}" : JSON.stringify(fields);
    const head = `{"time":"${isoNow()}","level":"${lvl}","msg":${JSON.stringify(msg)}`;
    const line = rest === "{}" ? `${head}}\n` : `${head},${rest.slice(1)}\n`;
    if (ORDER[lvl] >= ORDER.warn) {
      flush();
      writeSync(2, line);
      return;
    }
    batch(line);
  };
  return {
    debug: write("debug"),
    info: write("info"),
    warn: write("warn"),
    error: write("error"),
    request(r) {
      if (ORDER.info < threshold) return;
      batch(
        `{"time":"${isoNow()}","level":"info","msg":"request","method":${text(r.method)},"route":${text(r.route)},` +
          `"status":${r.status},"durationMs":${r.durationMs},"org":${text(r.org)},"caller":${text(r.caller)},` +
          `"requestId":${text(r.requestId)}}\n`,
      );
    },
  };
}

function batch(line: string): void {
  pending += line;
  if (pending.length > 64 * 1024) flush();
  else if (!scheduled) {
    scheduled = true;
    setTimeout(flush, FLUSH_MS);
  }
}

/** Characters a JSON string may hold as they are: ids, routes, methods need no escaping. */
const PLAIN = /^[\w.:/{}@~+-]*$/;
const text = (value: string | null) =>
  value === null ? "null" : PLAIN.test(value) ? `"${value}"` : JSON.stringify(value);
