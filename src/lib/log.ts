import type { LogLevel } from "../config.ts";

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** One JSON object per line on stdout (warn and error on stderr). Callers never pass secrets. */
export function createLogger(level: LogLevel): Logger {
  const threshold = ORDER[level];
  const write = (lvl: Exclude<LogLevel, "silent">) => (msg: string, fields?: LogFields) => {
    if (ORDER[lvl] < threshold) return;
    const line = `${JSON.stringify({ time: new Date().toISOString(), level: lvl, msg, ...fields })}\n`;
    if (ORDER[lvl] >= ORDER.warn) process.stderr.write(line);
    else process.stdout.write(line);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
