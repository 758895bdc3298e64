import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");

/** Runs a few log calls in a child process (the logger writes to fds 1 and 2) and returns its lines. */
function logLines(level: string, calls: string): { out: string[]; err: string[] } {
  const script = `import { createLogger } from "./src/lib/log.ts"; const log = createLogger(${JSON.stringify(level)}); ${calls}`;
  const proc = Bun.spawnSync([process.execPath, "-e", script], { cwd: ROOT });
  const lines = (bytes: Uint8Array) => new TextDecoder().decode(bytes).split("\n").filter(Boolean);
  return { out: lines(proc.stdout), err: lines(proc.stderr) };
}

describe("createLogger", () => {
  test("writes one JSON object per line: time, level, msg, then the fields in their order", () => {
    const { out, err } = logLines(
      "info",
      `log.info("request", { method: "GET", route: null, status: 200, note: 'say "hi"\\n', skipped: undefined });
       log.info("bare"); log.info("empty", {}); log.debug("hidden", { a: 1 }); log.warn("careful", { n: 2 });`,
    );
    expect(out.map((line) => Object.keys(JSON.parse(line)))).toEqual([
      ["time", "level", "msg", "method", "route", "status", "note"],
      ["time", "level", "msg"],
      ["time", "level", "msg"],
    ]);
    const first = JSON.parse(out[0]!);
    expect(first).toMatchObject({ level: "info", msg: "request", route: null, note: 'say "hi"\n' });
    expect(new Date(first.time).toISOString()).toBe(first.time);
    expect(err.map((line) => JSON.parse(line))).toMatchObject([{ level: "warn", msg: "careful", n: 2 }]);
  });

  test("the request line is the line info would write with the same fields, escaping what needs it", () => {
    const fields = [
      {
        method: "GET",
        route: "/v1/products/{slug}",
        status: 200,
        durationMs: 0.42,
        org: "org_1",
        caller: "host",
        requestId: "a-b.c:d",
      },
      {
        method: "GET",
        route: null,
        status: 404,
        durationMs: 3,
        org: null,
        caller: null,
        requestId: 'quote " back \\ \u0001 é',
      },
    ];
    const calls = fields
      .map((f) => `log.request(${JSON.stringify(f)}); log.info("request", ${JSON.stringify(f)});`)
      .join(" ");
    const { out } = logLines("info", calls);
    expect(out).toHaveLength(4);
    const strip = (line: string) => line.replace(/^\{"time":"[^"]+",/, "{");
    expect(strip(out[0]!)).toBe(strip(out[1]!));
    expect(strip(out[2]!)).toBe(strip(out[3]!));
    expect(JSON.parse(out[2]!)).toMatchObject(fields[1]!);
    expect(logLines("warn", calls).out).toEqual([]);
  });
});
