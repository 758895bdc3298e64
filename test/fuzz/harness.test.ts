import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../src/core/errors.ts";
import { defineOperation } from "../../src/core/operation.ts";
import { FuzzTarget } from "./harness.ts";
import type { FuzzCase } from "./openapi-arbitraries.ts";

// The fuzzer's checks, shown to catch what they look for: operations served only here break
// each rule once, and the harness must name the broken rule.

const crashes = defineOperation({
  method: "GET",
  path: "/v1/fuzz-probe/crash",
  operationId: "testFuzzCrash",
  summary: "Fails with an unexpected error",
  tag: "Test",
  access: "storefront",
  response: Type.Object({}),
  handler: () => {
    throw new Error("unexpected");
  },
});

const writesThenRefuses = defineOperation({
  method: "GET",
  path: "/v1/fuzz-probe/write-then-refuse",
  operationId: "testFuzzWriteThenRefuse",
  summary: "Writes outside any transaction, then answers 404",
  tag: "Test",
  access: "storefront",
  response: Type.Object({}),
  handler: ({ tenant }) => {
    tenant.sqlite.run("UPDATE store_settings SET name = name || '!' WHERE id = 1");
    throw new ApiError("NOT_FOUND", "gone");
  },
});

const acceptsAnything = defineOperation({
  method: "GET",
  path: "/v1/fuzz-probe/ok",
  operationId: "testFuzzOk",
  summary: "Answers 200",
  tag: "Test",
  access: "storefront",
  response: Type.Object({}),
  handler: () => ({}),
});

let target: FuzzTarget;
beforeAll(async () => {
  target = await FuzzTarget.create({ operations: [crashes, writesThenRefuses, acceptsAnything] });
}, 30_000);
afterAll(() => target?.close());

const probe = (url: string, mustFail = false): FuzzCase => ({
  operationId: "probe",
  method: "GET",
  url,
  headers: { host: target.creds.host },
  mutation: "probe",
  mustFail,
});

describe("the fuzz harness catches each broken rule", () => {
  test("a 5xx is reported", async () => {
    const { status, problems } = await target.run(probe("/v1/fuzz-probe/crash"));
    expect(status).toBe(500);
    expect(problems.map((p) => p.rule)).toEqual(["no 5xx"]);
  });

  test("a 4xx that changed a table is reported", async () => {
    const { status, problems } = await target.run(probe("/v1/fuzz-probe/write-then-refuse"));
    expect(status).toBe(404);
    expect(problems.map((p) => p.rule)).toEqual(["a 4xx changes nothing"]);
  });

  test("input the schema refuses but the service accepts is reported", async () => {
    const { status, problems } = await target.run(probe("/v1/fuzz-probe/ok", true));
    expect(status).toBe(200);
    expect(problems.map((p) => p.rule)).toEqual(["input the schema refuses is a 4xx"]);
  });

  test("a 4xx with the envelope that changed nothing passes", async () => {
    const { status, problems } = await target.run(probe("/v1/products/prod_doesNotExist0000000000"));
    expect(status).toBe(404);
    expect(problems).toEqual([]);
  });
});
