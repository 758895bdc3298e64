import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ensureDemoStore } from "../../src/demo.ts";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { adminClient, simpleProduct } from "../helpers/catalog.ts";
import { png } from "../helpers/images.ts";
import { storedMedia, upload } from "./helpers.ts";

const HOST = "gallery.example.com";

let t: TestApp;
let shop: { id: string; key: string };
let admin: ReturnType<typeof adminClient>;
beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("Gallery", { host: HOST });
  admin = adminClient(t, shop.key);
});
afterAll(() => t.cleanup());

const newImage = async (width = 4) => (await upload(t, shop.key, png(width, 4), "image/png")).body.data;

describe("product images pointing at the shop's media", () => {
  test("a product image url may be /media/{id}; the storefront shows it as given and the shop's host serves it", async () => {
    const image = await newImage();
    const created = await admin.post(
      "/v1/admin/products",
      simpleProduct("Framed print", 2500, { images: [{ url: image.url, alt: "A framed print" }] }),
    );
    expect(created.status).toBe(201);
    const storefront = await t.json(`/v1/products/${created.body.data.id}`, { headers: { host: HOST } });
    expect(storefront.body.data.images).toEqual([{ url: image.url, alt: "A framed print" }]);
    const served = await t.request(image.url, { headers: { host: HOST } });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
  });

  test("other relative or odd urls are still a 400", async () => {
    for (const url of [
      "/media/",
      "/media/med_abc/x",
      "/uploads/med_abc",
      "media/med_abc",
      "javascript:alert(1)",
    ]) {
      const response = await admin.post(
        "/v1/admin/products",
        simpleProduct("Odd", 100, { images: [{ url }] }),
      );
      expect({ url, status: response.status, code: response.body.code }).toEqual({
        url,
        status: 400,
        code: "VALIDATION_ERROR",
      });
    }
  });
});

describe("DELETE /v1/admin/media/{id}", () => {
  test("media a product shows is a 409 and stays; once no product shows it, a 204 and it is gone", async () => {
    const image = await newImage();
    const product = await admin.post(
      "/v1/admin/products",
      simpleProduct("Poster", 1500, { images: [{ url: "https://cdn.example/a.png" }, { url: image.url }] }),
    );
    const refused = await admin.delete(`/v1/admin/media/${image.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: "CONFLICT", status: 409 });
    expect(refused.body.error).toContain(product.body.data.id);
    expect((await storedMedia(t, shop.id)).map((m) => m.id)).toContain(image.id);

    await admin.patch(`/v1/admin/products/${product.body.data.id}`, { images: [] });
    expect((await admin.delete(`/v1/admin/media/${image.id}`)).status).toBe(204);
    expect((await storedMedia(t, shop.id)).map((m) => m.id)).not.toContain(image.id);
    expect((await t.request(image.url, { headers: { host: HOST } })).status).toBe(404);
    expect((await admin.delete(`/v1/admin/media/${image.id}`)).status).toBe(404);
  });

  test("media no product shows is deleted with a 204", async () => {
    const image = await newImage();
    expect((await admin.delete(`/v1/admin/media/${image.id}`)).status).toBe(204);
  });

  test("deleting a product leaves its media in the shop, shared or not", async () => {
    const image = await newImage();
    const product = await admin.post(
      "/v1/admin/products",
      simpleProduct("Mug", 900, { images: [{ url: image.url }] }),
    );
    expect((await admin.delete(`/v1/admin/products/${product.body.data.id}`)).status).toBe(204);
    expect((await storedMedia(t, shop.id)).map((m) => m.id)).toContain(image.id);
    expect((await t.request(image.url, { headers: { host: HOST } })).status).toBe(200);
  });

  test("a storefront key cannot delete (403) and the media stays", async () => {
    const image = await newImage();
    const storefront = await t.org("Gallery window", { scopes: ["storefront"] });
    const response = await t.json(`/v1/admin/media/${image.id}`, {
      method: "DELETE",
      headers: { "x-api-key": storefront.key },
    });
    expect(response.status).toBe(403);
    expect((await storedMedia(t, shop.id)).map((m) => m.id)).toContain(image.id);
  });
});

describe("GET /v1/admin/media", () => {
  test("lists the shop's media newest first, paged, without the bytes; a shop's Host alone is a 403", async () => {
    const lister = await t.org("Lister");
    const ids: string[] = [];
    for (const width of [2, 3, 4])
      ids.push((await upload(t, lister.key, png(width, 2), "image/png")).body.data.id);
    const first = await t.json("/v1/admin/media?limit=2", { headers: { "x-api-key": lister.key } });
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ page: 1, limit: 2, total: 3 });
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.data[0]).toEqual({
      id: ids[2],
      url: `/media/${ids[2]}`,
      contentType: "image/png",
      bytes: expect.any(Number),
      width: 4,
      height: 2,
      createdAt: expect.any(String),
    });
    const second = await t.json("/v1/admin/media?limit=2&page=2", { headers: { "x-api-key": lister.key } });
    expect(second.body.data.map((m: { id: string }) => m.id)).toEqual([ids[0]]);
    const byHost = await t.json("/v1/admin/media", { headers: { host: HOST } });
    expect(byHost.status).toBe(403);
    expect((await t.json("/v1/admin/media", {})).status).toBe(401);
  });
});

describe("the demo store", () => {
  test("its product images are its own media, drawn at first start and served on its host", async () => {
    const demoApp = makeTestApp({ env: { DEMO_TENANT: "true" } });
    try {
      const demo = await ensureDemoStore(demoApp.app.ctx);
      expect(demo).toBeDefined();
      const listed = await demoApp.json("/v1/products?limit=100", { headers: { host: demo!.host } });
      expect(listed.body.data.length).toBeGreaterThan(50);
      const urls = new Set<string>();
      for (const product of listed.body.data) {
        expect(product.images.length).toBeGreaterThanOrEqual(1);
        expect(product.images.length).toBeLessThanOrEqual(3);
        expect(product.images[0].alt).toBe(product.name.en);
        for (const image of product.images) {
          expect(image.url).toMatch(/^\/media\/med_[A-Za-z0-9]+$/);
          urls.add(image.url);
        }
      }
      expect(urls.size).toBeGreaterThan(3);
      for (const url of urls) {
        const served = await demoApp.request(url, { headers: { host: demo!.host } });
        expect(served.status).toBe(200);
        expect(served.headers.get("content-type")).toBe("image/png");
      }
    } finally {
      demoApp.cleanup();
    }
  });
});
