import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../src/core/errors.ts";
import { compileInput } from "../../src/core/validation.ts";

// Declared defaults fill absent values only; an object or array default is a fresh copy per call.

const schema = Type.Object({
  limit: Type.Integer({ minimum: 1, default: 20 }),
  sort: Type.String({ default: "newest" }),
  scopes: Type.Array(Type.String(), { default: ["storefront"] }),
  filter: Type.Object({ status: Type.String() }, { default: { status: "active" } }),
});

describe("input defaults", () => {
  test("absent values get their defaults; present ones are kept", () => {
    const body = compileInput("body", schema);
    expect(body.parse({})).toEqual({
      limit: 20,
      sort: "newest",
      scopes: ["storefront"],
      filter: { status: "active" },
    });
    expect(body.parse({ limit: 5, sort: "price" })).toMatchObject({ limit: 5, sort: "price" });
  });

  test("an object or array default is copied: changing one call's value changes neither the schema nor the next call", () => {
    const body = compileInput("body", schema);
    const first = body.parse({}) as { scopes: string[]; filter: { status: string } };
    first.scopes.push("admin");
    first.filter.status = "draft";
    expect(body.parse({})).toMatchObject({ scopes: ["storefront"], filter: { status: "active" } });
    expect(schema.properties.scopes.default).toEqual(["storefront"]);
    expect(schema.properties.filter.default).toEqual({ status: "active" });
  });

  test("a value of the wrong type is refused, not replaced by the default", () => {
    const body = compileInput("body", schema);
    expect(() => body.parse({ scopes: {} })).toThrow(ApiError);
    expect(() => body.parse({ limit: "many" })).toThrow(ApiError);
  });
});
