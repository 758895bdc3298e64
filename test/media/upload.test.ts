import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { MEDIA_MAX_BYTES } from "../../src/media/media.ts";
import { makeTestApp, signUp, type TestApp } from "../helpers/app.ts";
import { png, pngOfSize, SAMPLES } from "../helpers/images.ts";
import { bytesOf, storedMedia, upload, uploadForm } from "./helpers.ts";

const SHOP_LIMIT = 2000;

let t: TestApp;
let shop: { id: string; key: string };
beforeAll(async () => {
  t = makeTestApp({ env: { MEDIA_MAX_SHOP_BYTES: String(10 * MEDIA_MAX_BYTES) } });
  shop = await t.org("Pictures");
});
afterAll(() => t.cleanup());

const sha256 = (bytes: Uint8Array) => new Bun.CryptoHasher("sha256").update(bytes).digest("hex");

describe("POST /v1/admin/media: what is accepted", () => {
  for (const sample of SAMPLES) {
    test(`${sample.name}: stored as ${sample.contentType} with the size its headers give, served back as sent`, async () => {
      const { status, body } = await upload(t, shop.key, sample.bytes, sample.contentType);
      expect(status).toBe(201);
      expect(body.data).toEqual({
        id: expect.stringMatching(/^med_[A-Za-z0-9]+$/),
        url: `/media/${body.data.id}`,
        contentType: sample.contentType,
        bytes: sample.bytes.length,
        width: sample.width,
        height: sample.height,
        createdAt: expect.any(String),
      });
      const served = await t.request(body.data.url, { headers: { "x-api-key": shop.key } });
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe(sample.contentType);
      expect(await bytesOf(served)).toEqual(sample.bytes);
    });
  }

  test("the bytes decide the type: a PNG sent as image/jpeg is stored and served as image/png", async () => {
    const bytes = png(3, 2);
    const { status, body } = await upload(t, shop.key, bytes, "image/jpeg");
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ contentType: "image/png", width: 3, height: 2 });
    const served = await t.request(body.data.url, { headers: { "x-api-key": shop.key } });
    expect(served.headers.get("content-type")).toBe("image/png");
  });

  test("a multipart/form-data form with one file in the field `file` is stored like a whole-body upload", async () => {
    const bytes = png(5, 4);
    const form = new FormData();
    form.append("file", new File([bytes], "photo.jpg", { type: "image/jpeg" }));
    const { status, body } = await uploadForm(t, shop.key, form);
    expect(status).toBe(201);
    expect(body.data).toMatchObject({ contentType: "image/png", bytes: bytes.length, width: 5, height: 4 });
    const stored = (await storedMedia(t, shop.id)).find((row) => row.id === body.data.id);
    expect(stored?.sha256).toBe(sha256(bytes));
  });

  test("the bytes are kept inside the tenant's own .sqlite file, and no file is written beside it", async () => {
    const bytes = png(9, 9);
    const { body } = await upload(t, shop.key, bytes, "image/png");
    const tenantFile = join(t.dataDir, "tenants", `${shop.id}.sqlite`);
    const sqlite = new Database(tenantFile, { readonly: true });
    try {
      const row = sqlite.query("SELECT data, sha256 FROM media WHERE id = ?").get(body.data.id) as {
        data: Uint8Array;
        sha256: string;
      };
      expect(row.data).toEqual(bytes);
      expect(row.sha256).toBe(sha256(bytes));
    } finally {
      sqlite.close();
    }
    const files = readdirSync(t.dataDir, { recursive: true }).map(String).sort();
    for (const file of files)
      expect(file).toMatch(/^(platform\.sqlite|tenants|tenants\/org_\w+\.sqlite)(-wal|-shm)?$/);
  });
});

describe("POST /v1/admin/media: what is refused, changing nothing", () => {
  const refusedWith = async (
    response: Promise<{ status: number; body: any }>,
    status: number,
    code: string,
  ) => {
    const before = await storedMedia(t, shop.id);
    const { status: got, body } = await response;
    expect({ status: got, code: body.code }).toEqual({ status, code });
    expect(body).toEqual({
      error: expect.any(String),
      code,
      status,
      ...(body.details ? { details: body.details } : {}),
    });
    expect(await storedMedia(t, shop.id)).toEqual(before);
  };
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';

  test("an SVG is a 422, whatever type it is sent as", async () => {
    await refusedWith(upload(t, shop.key, svg, "image/svg+xml"), 422, "UNPROCESSABLE");
    await refusedWith(upload(t, shop.key, svg, "image/png"), 422, "UNPROCESSABLE");
  });

  test("an HTML file sent as image/png is a 422", async () => {
    await refusedWith(upload(t, shop.key, "<!doctype html><h1>hi</h1>", "image/png"), 422, "UNPROCESSABLE");
  });

  test("a file whose magic number is right but whose headers are cut off is a 422", async () => {
    await refusedWith(upload(t, shop.key, png(4, 4).subarray(0, 20), "image/png"), 422, "UNPROCESSABLE");
  });

  test("a body that is neither image/* nor a form is a 400, and so is an empty file", async () => {
    await refusedWith(upload(t, shop.key, png(2, 2), "text/html"), 400, "VALIDATION_ERROR");
    await refusedWith(upload(t, shop.key, "{}", "application/json"), 400, "VALIDATION_ERROR");
    await refusedWith(upload(t, shop.key, new Uint8Array(), "image/png"), 400, "VALIDATION_ERROR");
  });

  test("a form without the file field, with a text in it, or with a second field is a 400", async () => {
    const other = new FormData();
    other.append("image", new File([png(2, 2)], "a.png", { type: "image/png" }));
    const text = new FormData();
    text.append("file", "not a file");
    const two = new FormData();
    two.append("file", new File([png(2, 2)], "a.png", { type: "image/png" }));
    two.append("alt", "a second field");
    for (const form of [other, text, two])
      await refusedWith(uploadForm(t, shop.key, form), 400, "VALIDATION_ERROR");
  });

  test("a file of 5 MiB is taken; 5 MiB + 1 byte is a 413, as a whole body, chunked or in a form", async () => {
    const largest = await upload(t, shop.key, pngOfSize(MEDIA_MAX_BYTES), "image/png");
    expect(largest.status).toBe(201);
    expect(largest.body.data.bytes).toBe(MEDIA_MAX_BYTES);

    const tooLarge = pngOfSize(MEDIA_MAX_BYTES + 1);
    await refusedWith(upload(t, shop.key, tooLarge, "image/png"), 413, "PAYLOAD_TOO_LARGE");
    const chunked = new ReadableStream({
      start(controller) {
        for (let at = 0; at < tooLarge.length; at += 65_536)
          controller.enqueue(tooLarge.subarray(at, at + 65_536));
        controller.close();
      },
    });
    const streamed = t.json("/v1/admin/media", {
      method: "POST",
      headers: { "x-api-key": shop.key, "content-type": "image/png" },
      body: chunked,
    });
    await refusedWith(streamed, 413, "PAYLOAD_TOO_LARGE");
    const form = new FormData();
    form.append("file", new File([tooLarge], "big.png", { type: "image/png" }));
    await refusedWith(uploadForm(t, shop.key, form), 413, "PAYLOAD_TOO_LARGE");
  });

  test("a storefront key is a 403 and no credential a 401", async () => {
    const storefront = await t.org("Window", { scopes: ["storefront"] });
    const before = await storedMedia(t, storefront.id);
    const forbidden = await upload(t, storefront.key, png(2, 2), "image/png");
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe("FORBIDDEN");
    const anonymous = await t.json("/v1/admin/media", {
      method: "POST",
      headers: { "content-type": "image/png" },
      body: png(2, 2),
    });
    expect(anonymous.status).toBe(401);
    expect(await storedMedia(t, storefront.id)).toEqual(before);
  });
});

describe("the shop's media limit (MEDIA_MAX_SHOP_BYTES)", () => {
  test("an upload that would pass it is a 422 that stores nothing; deleting media makes room again", async () => {
    const small = makeTestApp({ env: { MEDIA_MAX_SHOP_BYTES: String(SHOP_LIMIT) } });
    try {
      const org = await small.org("Small");
      const first = await upload(small, org.key, pngOfSize(1200), "image/png");
      expect(first.status).toBe(201);
      const second = await upload(small, org.key, pngOfSize(SHOP_LIMIT - 1200 + 1), "image/png");
      expect(second.status).toBe(422);
      expect(second.body.code).toBe("UNPROCESSABLE");
      expect((await storedMedia(small, org.id)).length).toBe(1);
      const exact = await upload(small, org.key, pngOfSize(SHOP_LIMIT - 1200), "image/png");
      expect(exact.status).toBe(201);
      const deleted = await small.request(`/v1/admin/media/${first.body.data.id}`, {
        method: "DELETE",
        headers: { "x-api-key": org.key },
      });
      expect(deleted.status).toBe(204);
      expect((await upload(small, org.key, pngOfSize(1000), "image/png")).status).toBe(201);
    } finally {
      small.cleanup();
    }
  });
});

describe("idempotency of uploads", () => {
  test("the same Idempotency-Key replays the same file's answer and refuses another file with a 409", async () => {
    const headers = { "idempotency-key": "upload-once" };
    const first = await upload(t, shop.key, png(6, 6), "image/png", headers);
    const again = await upload(t, shop.key, png(6, 6), "image/png", headers);
    expect(again.status).toBe(201);
    expect(again.response.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    const before = await storedMedia(t, shop.id);
    const other = await upload(t, shop.key, png(6, 7), "image/png", headers);
    expect(other.status).toBe(409);
    expect(other.body.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await storedMedia(t, shop.id)).toEqual(before);
  });
});

describe("a dashboard session", () => {
  test("uploads to the active organization and sees it served on the platform host", async () => {
    const cookie = await signUp(t, "owner@pictures.example");
    const created = await t.json("/api/auth/organization/create", {
      method: "POST",
      headers: { cookie, "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify({ name: "Session shop" }),
    });
    expect(created.status).toBe(201);
    const uploaded = await t.json("/v1/admin/media", {
      method: "POST",
      headers: { cookie, "content-type": "image/png", origin: "http://localhost" },
      body: png(8, 8),
    });
    expect(uploaded.status).toBe(201);
    const served = await t.request(uploaded.body.data.url, { headers: { cookie } });
    expect(served.status).toBe(200);
    expect(served.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
  });
});
