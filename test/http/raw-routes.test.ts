import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiError } from "../../src/core/errors.ts";
import type { Module } from "../../src/core/module.ts";
import type { LogFields } from "../../src/lib/log.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { collectLog } from "../helpers/log.ts";

// A module's own routes (discovery documents, `/mcp`, pages) answer what they throw through the
// service's one error path, as operations do. Elysia names a thrown value by its `code` property,
// so these throws carry codes of its own vocabulary (`NOT_FOUND`) and of the file system's. A route
// of a fixed path is answered without Elysia (src/app.ts): the same answers either way, and a path
// only Elysia matches (a trailing slash) reaches the same handler.
const THROWN: Record<string, () => unknown> = {
  "not-found": () => new ApiError("NOT_FOUND", "Widget not found"),
  unauthorized: () => new ApiError("UNAUTHORIZED", "Sign in first"),
  "rate-limited": () => new ApiError("RATE_LIMITED", "Too many widgets", undefined, { "retry-after": "7" }),
  invalid: () =>
    new ApiError("VALIDATION_ERROR", "Invalid widget", [{ path: "/size", message: "Expected integer" }]),
  "disk-full": () => Object.assign(new Error("No space left on device"), { code: "ENOSPC" }),
  bug: () => new Error("widget bug"),
};

const rawRoutes: Module = {
  name: "test-raw-routes",
  operations: [],
  routes: () => [
    {
      method: "POST",
      path: "/test/raw/:what",
      handle: (_request, params) => {
        throw THROWN[params.what!]!();
      },
    },
    // Fixed paths; a rejected promise, as an async handler's throw.
    ...Object.entries(THROWN).map(([what, thrown]) => ({
      method: "POST" as const,
      path: `/test/fixed/${what}`,
      handle: async () => {
        throw thrown();
      },
    })),
  ],
};

let t: TestApp;
const lines: (LogFields & { msg: string })[] = [];
beforeAll(() => {
  t = makeTestApp({ modules: [rawRoutes] });
  collectLog(t.app.ctx.log, lines, ["info", "error", "warn"]);
});
afterAll(() => t.cleanup());

const unhandled = (requestId: string) =>
  lines.filter((line) => line.msg === "unhandled error" && line.requestId === requestId);

const WAYS = [
  { way: "router", pathOf: (what: string) => `/test/raw/${what}`, route: "/test/raw/:what" },
  { way: "fixed", pathOf: (what: string) => `/test/fixed/${what}`, route: "/test/fixed/unauthorized" },
  // A path only the router matches, to the same handler.
  { way: "fixed-slash", pathOf: (what: string) => `/test/fixed/${what}/`, route: "/test/fixed/unauthorized" },
];

describe.each(WAYS)(
  "a module's own route answers what it throws as every transport does ($way)",
  ({ way, pathOf, route }) => {
    const post = (what: string) =>
      t.json(pathOf(what), { method: "POST", headers: { "x-request-id": `raw-${what}-${way}` } });

    test("an ApiError answers its own status and envelope, not the router's 404 or a 500", async () => {
      const cases = [
        ["not-found", 404, { error: "Widget not found", code: "NOT_FOUND", status: 404 }],
        ["unauthorized", 401, { error: "Sign in first", code: "UNAUTHORIZED", status: 401 }],
        [
          "invalid",
          400,
          {
            error: "Invalid widget",
            code: "VALIDATION_ERROR",
            status: 400,
            details: [{ path: "/size", message: "Expected integer" }],
          },
        ],
      ] as const;
      for (const [what, status, body] of cases) {
        const answer = await post(what);
        expect({ what, status: answer.status, body: answer.body }).toEqual({ what, status, body });
        expect(answer.response.headers.get("x-request-id")).toBe(`raw-${what}-${way}`);
        expect(unhandled(`raw-${what}-${way}`)).toEqual([]);
      }
      const logged = lines.find(
        (line) => line.msg === "request" && line.requestId === `raw-unauthorized-${way}`,
      );
      expect(logged).toMatchObject({ route, status: 401 });
    });

    test("an ApiError's headers are sent with it (Retry-After of a 429)", async () => {
      const { status, body, response } = await post("rate-limited");
      expect(status).toBe(429);
      expect(body).toEqual({ error: "Too many widgets", code: "RATE_LIMITED", status: 429 });
      expect(response.headers.get("retry-after")).toBe("7");
    });

    test("failing storage (a full disk) is a 503 UNAVAILABLE with Retry-After, not a 500", async () => {
      const { status, body, response } = await post("disk-full");
      expect(status).toBe(503);
      expect(body).toMatchObject({ code: "UNAVAILABLE", status: 503 });
      expect(body.error).toContain("storage is full");
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(unhandled(`raw-disk-full-${way}`)).toEqual([]);
    });

    test("anything else is our bug: 500 INTERNAL without detail, logged with its stack", async () => {
      const { status, body } = await post("bug");
      expect(status).toBe(500);
      expect(body).toEqual({ error: "Internal error", code: "INTERNAL", status: 500 });
      const [logged] = unhandled(`raw-bug-${way}`);
      expect(logged).toMatchObject({ error: "widget bug" });
      expect(String(logged!.stack)).toContain("widget bug");
    });
  },
);

test("the router's own answers stay: another method on a route is a 405, an unknown path a 404", async () => {
  for (const path of ["/test/raw/not-found", "/test/fixed/not-found"]) {
    const wrongMethod = await t.json(path);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.response.headers.get("allow")).toBe("POST");
    expect(wrongMethod.body).toMatchObject({ code: "METHOD_NOT_ALLOWED", status: 405 });
  }
  const unknown = await t.json("/test/nothing-here", { method: "POST" });
  expect(unknown.status).toBe(404);
  expect(unknown.body).toEqual({
    error: "No route POST /test/nothing-here",
    code: "NOT_FOUND",
    status: 404,
  });
});
