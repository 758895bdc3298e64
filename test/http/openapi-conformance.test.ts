import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { answerObserver, type ObservedAnswer, observeAnswers } from "../../src/http/observe.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { runScript } from "../helpers/cli.ts";
import { AnswerChecker, conformanceReport } from "../helpers/openapi-conformance.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

// The check the test preload (test/preload.ts) runs on every answer of a test run, shown to catch
// what it looks for; and the adapter's observation hook it relies on.

let t: TestApp;
let shop: Shop;
let checker: AnswerChecker;
beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Conformance Shop", "conformance-shop.example");
  checker = new AnswerChecker((await t.json("/v1/openapi.json")).body);
});
afterAll(() => t.cleanup());

/** The answers the adapter shows while `run` runs; the preload's observer still sees them too. */
async function observed(run: () => Promise<unknown>): Promise<ObservedAnswer[]> {
  const previous = answerObserver;
  const seen: ObservedAnswer[] = [];
  observeAnswers((answer) => {
    seen.push(answer);
    previous?.(answer);
  });
  try {
    await run();
  } finally {
    observeAnswers(previous);
  }
  return seen;
}

/** A real `getProduct` 200, as the adapter showed it. */
async function productAnswer(): Promise<ObservedAnswer> {
  const [answer] = await observed(() =>
    t.request(`/v1/products/${shop.shirt.id}`, { headers: { host: shop.host } }),
  );
  return answer!;
}

describe("the adapter shows every operation answer to the observer", () => {
  test("with its operation, status and uncompressed body: a compressed listing, a 304 without body, an error", async () => {
    const headers = { host: shop.host, "accept-encoding": "br" };
    const seen = await observed(async () => {
      const list = await t.request("/v1/products", { headers });
      expect(list.headers.get("content-encoding")).toBe("br");
      const etag = list.headers.get("etag")!;
      const again = await t.request("/v1/products", { headers: { ...headers, "if-none-match": etag } });
      expect(again.status).toBe(304);
      expect((await t.request("/v1/products/prod_doesNotExist0000000000", { headers })).status).toBe(404);
    });
    expect(seen.map((a) => [a.operationId, a.method, a.path, a.status])).toEqual([
      ["listProducts", "GET", "/v1/products", 200],
      ["listProducts", "GET", "/v1/products", 304],
      ["getProduct", "GET", "/v1/products/{id}", 404],
    ]);
    expect(JSON.parse(seen[0]!.body).data[0].id).toBe(shop.shirt.id);
    expect(seen[1]!.body).toBe("");
    expect(JSON.parse(seen[2]!.body)).toMatchObject({ code: "NOT_FOUND", status: 404 });
    for (const answer of seen)
      expect([answer.status, checker.problem(answer)]).toEqual([answer.status, undefined]);
  });

  test("a HEAD is shown with its own method and checked as its GET, without the body", async () => {
    const seen = await observed(() =>
      t.request("/v1/products", { method: "HEAD", headers: { host: shop.host } }),
    );
    expect(seen.map((a) => [a.operationId, a.method, a.status])).toEqual([["listProducts", "HEAD", 200]]);
    expect(checker.problem(seen[0]!)).toBeUndefined();
    expect(checker.problem({ ...seen[0]!, status: 201 })).toMatch(/^status 201 is not declared/);
  });
});

describe("an answer must be declared for its operation in the OpenAPI document", () => {
  test("a declared status with a body that fits the declared schema passes", async () => {
    expect(checker.problem(await productAnswer())).toBeUndefined();
  });

  test("a status the operation does not declare is reported with the statuses it declares", async () => {
    const answer = { ...(await productAnswer()), status: 418 };
    expect(checker.problem(answer)).toMatch(
      /^status 418 is not declared \(declared: 200, 304, 400, .*404.*\)$/,
    );
  });

  test("a body that does not fit the declared schema is reported with the first schema errors", async () => {
    const real = await productAnswer();
    const data = JSON.parse(real.body).data;
    const renamed = { ...real, body: JSON.stringify({ data: { ...data, name: "Shirt" } }) };
    expect(checker.problem(renamed)).toBe(
      "the body does not fit the declared schema: /data/name must be object",
    );
    const error = {
      ...real,
      status: 404,
      body: JSON.stringify({ error: "Taken", code: "CONFLICT", status: 404 }),
    };
    expect(checker.problem(error)).toBe(
      "the body does not fit the declared schema: /code must be equal to one of the allowed values (NOT_FOUND)",
    );
  });

  test("the content type, a body where none is declared, and the route are checked too", async () => {
    const real = await productAnswer();
    expect(checker.problem({ ...real, contentType: "text/html" })).toBe(
      'content type "text/html" is not declared (application/json)',
    );
    expect(checker.problem({ ...real, status: 304 })).toBe("a body where the document declares none");
    expect(checker.problem({ ...real, path: "/v1/items/{id}" })).toBe(
      "served as GET /v1/items/{id}, documented as GET /v1/products/{id}",
    );
  });

  test("the report names operationId, route, status and problem once per kind, leaving out operations the document lacks", async () => {
    const real = await productAnswer();
    const teapot = { ...real, status: 418 };
    const testOnly = { ...real, operationId: "testOnlyOperation", status: 418 };
    expect(conformanceReport(checker, [real, testOnly])).toBeUndefined();
    const report = conformanceReport(checker, [real, teapot, teapot, testOnly]);
    expect(report).toContain("does not declare these answers (1):");
    expect(report).toContain("- getProduct (GET /v1/products/{id}) 418: status 418 is not declared");
    expect(report).toContain("(2 answers)");
    expect(report).not.toContain("testOnlyOperation");
  });

  test("a test run with an undeclared answer exits non-zero, naming that answer only", async () => {
    const run = await runScript("test", ["./test/fixtures/undeclared-answer.ts"], {});
    const output = run.stdout + run.stderr;
    expect(output).toContain("1 pass");
    expect(run.code).not.toBe(0);
    expect(output).toMatch(
      /- getHealth \(GET \/v1\/health\) 418: status 418 is not declared \(declared: 200, /,
    );
    expect(output).not.toContain("getHealth (GET /v1/health) 200");
  }, 30_000);
});
