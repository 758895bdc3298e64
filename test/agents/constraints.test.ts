import { describe, expect, test } from "bun:test";
import { Type } from "@sinclair/typebox";
import {
  capabilityCatalog,
  constraintsInWords,
  parseConstraints,
  violationsOf,
} from "../../src/agents/capabilities.ts";
import { ProtocolError } from "../../src/agents/errors.ts";
import { defineOperation } from "../../src/core/operation.ts";

// Constraints on a made-up operation with path, query and body fields (one of them a Money object).
const op = defineOperation({
  method: "POST",
  path: "/v1/admin/things/{id}/pay",
  operationId: "adminPayThing",
  summary: "Pay a thing",
  tag: "Test",
  access: "admin",
  params: Type.Object({ id: Type.String() }),
  query: Type.Object({ mode: Type.Optional(Type.String()) }),
  body: Type.Object({
    amount: Type.Optional(Type.Integer()),
    price: Type.Optional(Type.Object({ amount: Type.Integer(), currency: Type.String() })),
    currency: Type.Optional(Type.String()),
    urgent: Type.Optional(Type.Boolean()),
  }),
  response: Type.Object({ ok: Type.Boolean() }),
  handler: () => ({ ok: true }),
});
const capability = capabilityCatalog([op]).get("adminPayThing")!;

const refusal = (raw: unknown) => {
  try {
    parseConstraints(capability, raw);
  } catch (error) {
    return error instanceof ProtocolError ? error.error : "other";
  }
  return "accepted";
};

describe("constraints", () => {
  test("the capability merges path, query and body into one input schema and knows each field's part", () => {
    expect(Object.keys(capability.input.properties as object)).toEqual([
      "id",
      "mode",
      "amount",
      "price",
      "currency",
      "urgent",
    ]);
    expect(capability.input.required).toEqual(["id"]);
    expect(capability.class).toBe("admin-write");
    expect(capability.fields.get("mode")).toBe("query");
  });

  test("parsing: operators, scalars, unknown operators and fields, wrong types", () => {
    expect(refusal({ amount: { max: 5000 }, currency: { in: ["EUR", "USD"] }, urgent: false })).toBe(
      "accepted",
    );
    expect(refusal({ amount: { upto: 1 } })).toBe("unknown_constraint_operator");
    expect(refusal({ colour: "red" })).toBe("invalid_capabilities");
    expect(refusal({ amount: { max: "1" } })).toBe("invalid_capabilities");
    expect(refusal({ amount: {} })).toBe("invalid_capabilities");
    expect(refusal({ amount: null })).toBe("invalid_capabilities");
    expect(refusal({ currency: { in: [["EUR"]] } })).toBe("invalid_capabilities");
    expect(refusal([1])).toBe("invalid_capabilities");
    expect(parseConstraints(capability, undefined)).toBeNull();
    expect(parseConstraints(capability, {})).toBeNull();
  });

  test("checking: every operator must hold; absent, null or mistyped values violate (fail closed)", () => {
    const constraints = parseConstraints(capability, {
      amount: { min: 100, max: 5000 },
      price: { max: 1000 },
      currency: { in: ["EUR"] },
      mode: { not_in: ["force"] },
      urgent: false,
    })!;
    const call = (body: Record<string, unknown>, query: Record<string, unknown> = { mode: "normal" }) =>
      violationsOf(capability, constraints, { params: { id: "x" }, query, body }).map(
        (v) => `${v.path} ${v.constraint}`,
      );
    const ok = { amount: 4000, price: { amount: 900, currency: "EUR" }, currency: "EUR", urgent: false };
    expect(call(ok)).toEqual([]);
    expect(call({ ...ok, amount: 5001 })).toEqual(["/body/amount max 5000"]);
    expect(call({ ...ok, amount: 99 })).toEqual(["/body/amount min 100"]);
    expect(call({ ...ok, price: { amount: 1001, currency: "EUR" } })).toEqual(["/body/price max 1000"]);
    expect(call({ ...ok, currency: "USD" })).toEqual(['/body/currency in ["EUR"]']);
    expect(call({ ...ok, urgent: true })).toEqual(["/body/urgent eq false"]);
    expect(call(ok, { mode: "force" })).toEqual(['/query/mode not_in ["force"]']);
    const { amount: _, ...withoutAmount } = ok;
    expect(call(withoutAmount)).toEqual(["/body/amount max 5000", "/body/amount min 100"]);
    expect(call({ ...ok, amount: "4000" })).toEqual(["/body/amount max 5000", "/body/amount min 100"]);
    expect(call(ok, {})).toEqual(['/query/mode not_in ["force"]']);
  });

  test("in words, for the approver", () => {
    expect(
      constraintsInWords({ amount: { max: 5000 }, currency: { in: ["EUR", "USD"] }, urgent: false }),
    ).toEqual(["amount ≤ 5000", 'currency one of "EUR", "USD"', "urgent = false"]);
  });
});
