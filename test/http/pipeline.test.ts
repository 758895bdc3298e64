import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jsonBody, makeTestApp, type TestApp } from "../helpers/app.ts";
import { collectLog } from "../helpers/log.ts";
import { probeOperations } from "../helpers/probe-operations.ts";

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = makeTestApp({ operations: probeOperations });
  key = (await t.org("Pipeline")).key;
});
afterAll(() => t.cleanup());

const echo = (body: string, headers: Record<string, string> = {}, path = "/v1/admin/echo/thing_1") =>
  t.json(path, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json", ...headers },
    body,
  });

const expectErrorBody = (body: any, status: number, code: string) => {
  expect(body.status).toBe(status);
  expect(body.code).toBe(code);
  expect(typeof body.error).toBe("string");
  expect(body.error.length).toBeGreaterThan(0);
};

describe("envelope and validation", () => {
  test("valid input → 201 with {data}; the query string is coerced exactly", async () => {
    const { status, body } = await echo(
      JSON.stringify({ name: "ok", quantity: 3 }),
      {},
      "/v1/admin/echo/thing_1?verbose=true",
    );
    expect(status).toBe(201);
    expect(body).toEqual({ data: { id: "thing_1", verbose: true, name: "ok", quantity: 3 } });
  });

  test("malformed JSON → 400 VALIDATION_ERROR", async () => {
    const { status, body } = await echo('{"name": "ok", ');
    expect(status).toBe(400);
    expectErrorBody(body, 400, "VALIDATION_ERROR");
    expect(body.details).toEqual([{ path: "/body", message: "Malformed JSON" }]);
  });

  test("wrong types, missing fields, huge values and unknown fields → 400 with a detail path", async () => {
    const cases: [unknown, string][] = [
      [{ name: "ok", quantity: "2" }, "/body/quantity"],
      [{ name: "ok" }, "/body/quantity"],
      [{ name: "ok", quantity: 1000 }, "/body/quantity"],
      [{ name: "ok", quantity: 0 }, "/body/quantity"],
      [{ name: "ok", quantity: 1.5 }, "/body/quantity"],
      [{ name: "ok", quantity: 1e308 }, "/body/quantity"],
      [{ name: "x".repeat(51), quantity: 1 }, "/body/name"],
      [{ name: 7, quantity: 1 }, "/body/name"],
      [{ name: "ok", quantity: 1, tags: Array(6).fill("t") }, "/body/tags"],
      [{ name: "ok", quantity: 1, extra: true }, "/body/extra"],
      [[1, 2], "/body"],
      ["just a string", "/body"],
      [null, "/body"],
    ];
    for (const [input, path] of cases) {
      const { status, body } = await echo(JSON.stringify(input));
      expect(status).toBe(400);
      expectErrorBody(body, 400, "VALIDATION_ERROR");
      expect(body.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  test("a body that is not JSON → 400", async () => {
    const { status, body } = await echo("name=ok", { "content-type": "application/x-www-form-urlencoded" });
    expect(status).toBe(400);
    expectErrorBody(body, 400, "VALIDATION_ERROR");
  });

  test("bad path and query parameters → 400 naming them", async () => {
    const badId = await echo(JSON.stringify({ name: "ok", quantity: 1 }), {}, "/v1/admin/echo/..%2F..%2Fetc");
    expect(badId.status).toBe(400);
    expect(badId.body.details[0].path).toBe("/params/id");
    const badQuery = await echo(
      JSON.stringify({ name: "ok", quantity: 1 }),
      {},
      "/v1/admin/echo/thing_1?verbose=maybe",
    );
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.details[0].path).toBe("/query/verbose");
  });

  test("authentication comes before validation: bad input without a credential is a 401", async () => {
    const res = await t.json("/v1/admin/echo/thing_1", jsonBody({ nonsense: true }));
    expect(res.status).toBe(401);
  });
});

describe("pagination", () => {
  test("defaults page 1, limit 20, with the total", async () => {
    const { body } = await t.json("/v1/things", { headers: { "x-api-key": key } });
    expect(body.meta).toEqual({ page: 1, limit: 20, total: 45 });
    expect(body.data).toHaveLength(20);
  });

  test("the last partial page", async () => {
    const { body } = await t.json("/v1/things?page=3&limit=20", { headers: { "x-api-key": key } });
    expect(body.meta).toEqual({ page: 3, limit: 20, total: 45 });
    expect(body.data).toEqual([41, 42, 43, 44, 45]);
  });

  test("limit=0, limit=101, page=0, page=-1, limit=abc → 400, never a silent clamp", async () => {
    for (const q of [
      "limit=0",
      "limit=101",
      "page=0",
      "page=-1",
      "limit=abc",
      "limit=20.5",
      "page=99999999999",
    ]) {
      const { status, body } = await t.json(`/v1/things?${q}`, { headers: { "x-api-key": key } });
      expect(status).toBe(400);
      expectErrorBody(body, 400, "VALIDATION_ERROR");
    }
  });
});

describe("routing", () => {
  // A request for a route's exact path is answered without Elysia (src/app.ts); a trailing slash takes
  // Elysia's way to the same route. The query string reads the same either way.
  test("a query string is read the same at a route's exact path as through the router", async () => {
    const queries = [
      "page=2&limit=5",
      "limit=5&limit=7",
      "limit=%35",
      "limit=+5",
      "limit=5&page=",
      "limit=%zz",
      "limit",
      "&&limit=3&",
      "%6Cimit=4",
      "limit=4&x=%E2%82%AC",
      "",
    ];
    for (const query of queries) {
      const fixed = await t.json(`/v1/things?${query}`, { headers: { "x-api-key": key } });
      const routed = await t.json(`/v1/things/?${query}`, { headers: { "x-api-key": key } });
      expect({ query, status: fixed.status, body: fixed.body }).toEqual({
        query,
        status: routed.status,
        body: routed.body,
      });
    }
    // Not every one was refused (the comparison saw pages).
    const paged = await t.json("/v1/things?limit=%35", { headers: { "x-api-key": key } });
    expect(paged.body.meta).toEqual({ page: 1, limit: 5, total: 45 });
  });
});

describe("body size", () => {
  const twoMegabytes = JSON.stringify({ name: "x", quantity: 1, tags: ["y".repeat(2 * 1024 * 1024)] });

  test("a declared 2 MB body → 413 PAYLOAD_TOO_LARGE", async () => {
    const { status, body } = await echo(twoMegabytes);
    expect(status).toBe(413);
    expectErrorBody(body, 413, "PAYLOAD_TOO_LARGE");
  });

  test("a 2 MB body streamed without Content-Length → 413", async () => {
    const bytes = new TextEncoder().encode(twoMegabytes);
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.slice(i, i + 64 * 1024));
        controller.close();
      },
    });
    const request = new Request("http://localhost/v1/admin/echo/thing_1", {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: stream,
    });
    expect(request.headers.get("content-length")).toBeNull();
    const response = await t.app.fetch(request);
    expect(response.status).toBe(413);
    expectErrorBody(await response.json(), 413, "PAYLOAD_TOO_LARGE");
  });

  test("a 2 MB body on a public route → 413 too", async () => {
    const res = await t.json("/api/auth/sign-up/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: twoMegabytes,
    });
    expect(res.status).toBe(413);
  });
});

describe("request ids, unknown routes, health", () => {
  test("every response carries x-request-id; a sane client id is echoed, a bad one replaced", async () => {
    const generated = await t.request("/v1/health");
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.request("/v1/me", { headers: { "x-request-id": "client-abc.123" } });
    expect(echoed.status).toBe(401);
    expect(echoed.headers.get("x-request-id")).toBe("client-abc.123");
    const replaced = await t.request("/v1/health", { headers: { "x-request-id": "bad id with spaces" } });
    expect(replaced.headers.get("x-request-id")).not.toBe("bad id with spaces");
  });

  test("an unknown route → 404 with the error body", async () => {
    const { status, body } = await t.json("/v1/nothing-here", { headers: { "x-api-key": key } });
    expect(status).toBe(404);
    expectErrorBody(body, 404, "NOT_FOUND");
  });

  test("a known path with a method it does not answer → 405 with Allow, the envelope and a request id", async () => {
    const cases: [string, string, string][] = [
      ["DELETE", "/v1/things", "GET, HEAD"],
      ["PUT", "/v1/admin/echo/thing_1", "POST"],
      ["GET", "/v1/admin/echo/thing_1", "POST"],
      ["POST", "/v1/health", "GET, HEAD"],
      ["PATCH", "/v1/openapi.json", "GET, HEAD"],
      ["GET", "/mcp", "POST"],
      ["DELETE", "/mcp", "POST"],
    ];
    for (const [method, path, allow] of cases) {
      const { status, body, response } = await t.json(path, { method, headers: { "x-api-key": key } });
      expect(status).toBe(405);
      expectErrorBody(body, 405, "METHOD_NOT_ALLOWED");
      expect(response.headers.get("allow")).toBe(allow);
      expect(response.headers.get("x-request-id")).toBeTruthy();
    }
  });

  test("a 405 is written to the request log with its status", async () => {
    const own = makeTestApp();
    const lines: Record<string, unknown>[] = [];
    collectLog(own.app.ctx.log, lines, ["info"]);
    const res = await own.request("/v1/health", { method: "DELETE", headers: { "x-request-id": "m-405" } });
    expect(res.status).toBe(405);
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: "request", status: 405, requestId: "m-405" }),
    );
    own.cleanup();
  });

  test("an unknown path stays 404 whatever the method; HEAD of a GET path is answered", async () => {
    for (const method of ["GET", "POST", "DELETE"]) {
      const { status, body, response } = await t.json("/v1/things/extra/segments", { method });
      expect(status).toBe(404);
      expectErrorBody(body, 404, "NOT_FOUND");
      expect(response.headers.get("allow")).toBeNull();
    }
    expect((await t.request("/v1/health", { method: "HEAD" })).status).toBe(200);
  });

  test("health answers 200 {data:{status:ok}} and 503 once the control plane cannot answer", async () => {
    const own = makeTestApp();
    expect(await (await own.request("/v1/health")).json()).toEqual({ data: { status: "ok" } });
    own.app.ctx.platform.sqlite.close();
    const { status, body } = await own.json("/v1/health");
    expect(status).toBe(503);
    expectErrorBody(body, 503, "UNAVAILABLE");
    own.cleanup();
  });

  test("the docs page links the OpenAPI document", async () => {
    const res = await t.request("/v1/docs");
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain('data-url="/v1/openapi.json"');
  });
});
