import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TEMPLATE_NAMES } from "../../src/email/registry.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";

// GET /v1/admin/email-previews/{template}: every email the service sends, rendered with sample data
// for the merchant; nothing is sent.

let t: TestApp;
let shop: { id: string; key: string };

beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("Preview Shop", { host: "preview-shop.example" });
  await t.json("/v1/admin/store", {
    method: "PATCH",
    headers: { "x-api-key": shop.key, "content-type": "application/json" },
    body: JSON.stringify({ locales: ["pt", "en"], defaultLocale: "pt" }),
  });
});
afterAll(() => t.cleanup());

const preview = (path: string, headers: Record<string, string> = { "x-api-key": shop.key }) =>
  t.json(`/v1/admin/email-previews/${path}`, { headers });

describe("email previews", () => {
  test("every template renders in the store's default language, or in the one asked for", async () => {
    for (const name of TEMPLATE_NAMES) {
      const pt = await preview(name);
      expect(pt.status).toBe(200);
      expect(pt.body.data).toMatchObject({ template: name, locale: "pt" });
      expect(pt.body.data.subject.length).toBeGreaterThan(5);
      expect(pt.body.data.html).toContain("<html");
      expect(pt.body.data.text.length).toBeGreaterThan(20);
      const en = await preview(`${name}?locale=en`);
      expect(en.body.data.locale).toBe("en");
      expect(en.body.data.subject).not.toBe(pt.body.data.subject);
    }
    // A language without strings falls back to English.
    expect((await preview("order_shipped?locale=de")).body.data.locale).toBe("en");
  });

  test("an unknown template or a malformed locale is a 400; without a key a 401; a storefront caller a 403", async () => {
    const unknown = await preview("no_such_email");
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: "VALIDATION_ERROR", status: 400 });
    expect((await preview("order_shipped?locale=not-a-locale")).status).toBe(400);
    expect((await preview("order_shipped", {})).status).toBe(401);
    expect((await preview("order_shipped", { host: "preview-shop.example" })).status).toBe(403);
  });
});
