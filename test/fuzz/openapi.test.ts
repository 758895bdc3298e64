import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FuzzTarget } from "./harness.ts";

// Every operation of the served OpenAPI document, fed valid and broken generated requests through
// `app.fetch`. Fixed seed and a few cases per operation here; `bun run fuzz` runs longer ones.
const SEED = 20_261_124;
const RUNS_PER_OPERATION = 12;

let target: FuzzTarget;
beforeAll(async () => {
  target = await FuzzTarget.create();
}, 30_000);
afterAll(() => target?.close());

describe("fuzzing every operation of the OpenAPI document", () => {
  test("the document lists every operation with a credential the fuzzer can send", () => {
    expect(target.operations.length).toBeGreaterThan(60);
    const ids = target.operations.map((op) => op.operationId);
    for (const id of ["placeOrder", "adminUpdateStore", "signInCustomer", "createApiKey", "getHealth"]) {
      expect(ids).toContain(id);
    }
    // Public, or some requirement the fuzzer holds (API key, dashboard session, customer session, Host).
    const unreachable = target.operations.filter(
      (op) => op.security.length > 0 && op.security.every((set) => set.includes("agentToken")),
    );
    expect(unreachable.map((op) => op.operationId)).toEqual([]);
  });

  test("no 5xx, every 4xx carries the error envelope and changes nothing, schema-refused input is a 4xx", async () => {
    const run = await target.fuzz({ seed: SEED, runs: RUNS_PER_OPERATION });
    expect(run.cases).toBe(target.operations.length * RUNS_PER_OPERATION);
    // Both kinds of answer were reached: the generators get past validation and are refused too.
    expect(run.byStatus["2xx"]).toBeGreaterThan(run.cases / 10);
    expect(run.byStatus["4xx"]).toBeGreaterThan(run.cases / 10);
    expect(run.serverErrors).toBe(0);
    expect(run.problems).toEqual([]);
  }, 60_000);
});
