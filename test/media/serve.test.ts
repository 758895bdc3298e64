import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { makeTestApp, type TestApp } from "../helpers/app.ts";
import { png } from "../helpers/images.ts";
import { bytesOf, upload } from "./helpers.ts";

const HOST = "pictures.example.com";
const OTHER_HOST = "other.example.com";

let t: TestApp;
let shop: { id: string; key: string };
let other: { id: string; key: string };
let image: { id: string; url: string; bytes: Uint8Array; etag: string };
beforeAll(async () => {
  t = makeTestApp();
  shop = await t.org("Pictures", { host: HOST });
  other = await t.org("Other", { host: OTHER_HOST });
  const bytes = png(12, 10);
  const { body } = await upload(t, shop.key, bytes, "image/png");
  const etag = `"${new Bun.CryptoHasher("sha256").update(bytes).digest("hex")}"`;
  image = { id: body.data.id, url: body.data.url, bytes, etag };
});
afterAll(() => t.cleanup());

const get = (path: string, headers: Record<string, string>, method = "GET") =>
  t.request(path, { method, headers });

describe("GET /media/{id} on the shop's host", () => {
  test("serves the bytes with their type, the SHA-256 as a strong ETag, a year of public caching, nosniff and a CSP", async () => {
    const response = await get(image.url, { host: HOST });
    expect(response.status).toBe(200);
    expect(await bytesOf(response)).toEqual(image.bytes);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "image/png",
      etag: image.etag,
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      vary: "Origin",
    });
  });

  test("If-None-Match naming its ETag is a 304 with no body and the same caching headers", async () => {
    for (const ifNoneMatch of [image.etag, `W/${image.etag}`, `"other", ${image.etag}`, "*"]) {
      const response = await get(image.url, { host: HOST, "if-none-match": ifNoneMatch });
      expect(response.status).toBe(304);
      expect(await response.text()).toBe("");
      expect(response.headers.get("etag")).toBe(image.etag);
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    }
    const changed = await get(image.url, { host: HOST, "if-none-match": '"something-else"' });
    expect(changed.status).toBe(200);
  });

  test("HEAD answers the GET's headers with no body", async () => {
    const response = await get(image.url, { host: HOST }, "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("etag")).toBe(image.etag);
    expect(response.headers.get("content-length")).toBe(String(image.bytes.length));
    expect(await response.text()).toBe("");
  });

  test("an id this shop does not have is a 404 envelope, a malformed one a 400", async () => {
    const unknown = await t.json("/media/med_0000000000000000000000", { headers: { host: HOST } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: "NOT_FOUND", status: 404 });
    const malformed = await t.json("/media/photo.png", { headers: { host: HOST } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("GET /media/{id} from a storefront on another origin", () => {
  test("an origin the shop lists gets the CORS headers; another gets the file without them", async () => {
    const patched = await t.json("/v1/admin/store", {
      method: "PATCH",
      headers: { "x-api-key": shop.key, "content-type": "application/json" },
      body: JSON.stringify({ allowedOrigins: ["https://front.example"] }),
    });
    expect(patched.status).toBe(200);
    const listed = await get(image.url, { host: HOST, origin: "https://front.example" });
    expect(listed.headers.get("access-control-allow-origin")).toBe("https://front.example");
    expect(listed.headers.get("vary")).toBe("Origin");
    const other = await get(image.url, { host: HOST, origin: "https://elsewhere.example" });
    expect(other.status).toBe(200);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("isolation: another shop's media", () => {
  test("is a 404 on this shop's host", async () => {
    const response = await t.json(image.url, { headers: { host: OTHER_HOST } });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("NOT_FOUND");
  });

  test("is a 404 with the other shop's API key: to read, to delete, and absent from its list", async () => {
    expect((await t.json(image.url, { headers: { "x-api-key": other.key } })).status).toBe(404);
    const deleted = await t.json(`/v1/admin/media/${image.id}`, {
      method: "DELETE",
      headers: { "x-api-key": other.key },
    });
    expect(deleted.status).toBe(404);
    const list = await t.json("/v1/admin/media", { headers: { "x-api-key": other.key } });
    expect(list.body.data.map((m: { id: string }) => m.id)).not.toContain(image.id);
    expect((await get(image.url, { host: HOST })).status).toBe(200);
  });
});

describe("GET /media/{id} on the platform host", () => {
  test("needs a credential of the shop: none is a 401, a wrong key a 401", async () => {
    expect((await t.json(image.url, {})).status).toBe(401);
    expect((await t.json(image.url, { headers: { "x-api-key": "ck_wrong" } })).status).toBe(401);
  });

  test("with the shop's key it is served for the caller's cache only (private)", async () => {
    const response = await get(image.url, { "x-api-key": shop.key });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(response.headers.get("etag")).toBe(image.etag);
  });
});
