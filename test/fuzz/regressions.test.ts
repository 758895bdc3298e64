import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { jsonBody, makeTestApp, signUp, type TestApp } from "../helpers/app.ts";

// Cases the OpenAPI fuzzer found, kept as plain requests.

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = makeTestApp();
  cookie = await signUp(t, "owner@example.com");
  const org = await t.json("/api/auth/organization/create", jsonBody({ name: "Keys" }, { cookie }));
  if (org.status !== 201) throw new Error(`organization: ${org.status}`);
}, 30_000);
afterAll(() => t.cleanup());

describe("fuzzer findings", () => {
  // A body field with a declared `default` and a value of the wrong type once got the default
  // instead of a 400 (defaults were filled by TypeBox's Value.Default, which replaces such values).
  test("createApiKey: `scopes` that is not an array is a 400, not the default scopes", async () => {
    for (const scopes of [{}, { admin: true }]) {
      const res = await t.json("/api/auth/api-key/create", jsonBody({ name: "k", scopes }, { cookie }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    }
    const left = await t.json("/api/auth/api-key/list", { headers: { cookie } });
    expect(left.body.data).toEqual([]);
    // Left out, the field still takes its default.
    const created = await t.json("/api/auth/api-key/create", jsonBody({ name: "k" }, { cookie }));
    expect(created.status).toBe(201);
    expect(created.body.data.metadata.scopes).toEqual(["storefront"]);
  });
});
