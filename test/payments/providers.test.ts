import { describe, expect, test } from "bun:test";
import { NEEDED } from "../../src/payments/fields.ts";
import { allProviders, providerOf } from "../../src/payments/registry.ts";
import { PROVIDERS } from "../../src/payments/tables.ts";

// The registry is how checkout, refunds, webhooks, the sweep and the credential check reach a
// provider; what each provider does is proven over HTTP against the fake providers in the other
// files of this folder.

describe("the provider registry", () => {
  test("every provider a payment can name has one implementation, registered under its own name, in PROVIDERS order", () => {
    expect(allProviders().map((provider) => provider.name)).toEqual([...PROVIDERS]);
    for (const name of PROVIDERS) expect(providerOf(name).name).toBe(name);
  });

  test("a provider takes only methods whose credentials its settings declare", () => {
    for (const provider of allProviders()) {
      expect(provider.methods.length).toBeGreaterThan(0);
      for (const method of provider.methods) expect(NEEDED[provider.name][method]?.length).toBeGreaterThan(0);
    }
  });

  test("a provider is asked for refunds exactly when its settings declare refund credentials (Ifthenpay's are recorded)", () => {
    const asked = allProviders().filter((provider) => provider.refund !== undefined);
    expect(asked.map((provider) => provider.name)).toEqual(["stripe", "easypay"]);
    for (const provider of allProviders())
      expect(provider.refund !== undefined).toBe(NEEDED[provider.name].refunds !== undefined);
  });
});
