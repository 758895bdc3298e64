import type { TestApp } from "./app.ts";

/** Calls the API as one organization's admin API key. */
export function adminClient(t: TestApp, key: string) {
  const call = (method: string, path: string, body?: unknown) =>
    t.json(path, {
      method,
      headers: { "x-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    get: (path: string) => call("GET", path),
    post: (path: string, body: unknown) => call("POST", path, body),
    patch: (path: string, body: unknown) => call("PATCH", path, body),
    delete: (path: string) => call("DELETE", path),
  };
}

export type AdminClient = ReturnType<typeof adminClient>;

/** A simple single-variant product body. */
export function simpleProduct(name: string, price: number, extra: Record<string, unknown> = {}) {
  return { name: { en: name }, variants: [{ price }], ...extra };
}

/** A T-shirt with Size × Colour variants and SKUs `${prefix}-${colour}-${size}`. */
export function shirtProduct(prefix: string, extra: Record<string, unknown> = {}) {
  const sizes = ["S", "M", "L"];
  const colours = ["Red", "Blue"];
  return {
    name: { en: `${prefix} shirt`, pt: `Camisa ${prefix}` },
    options: [
      { name: "Size", values: sizes },
      { name: "Colour", values: colours },
    ],
    variants: colours.flatMap((colour) =>
      sizes.map((size) => ({
        sku: `${prefix}-${colour.toUpperCase()}-${size}`,
        options: { Size: size, Colour: colour },
        price: size === "L" ? 2199 : 1999,
        inventory: { onHand: 5 },
      })),
    ),
    ...extra,
  };
}
