import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { brotliDecompressSync } from "node:zlib";
import { chooseEncoding, FRESH_PREFERENCE, KEPT_PREFERENCE } from "../../src/http/compression.ts";
import type { TestApp } from "../helpers/app.ts";
import { makeTestApp } from "../helpers/app.ts";
import { shirtProduct } from "../helpers/catalog.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

const HOST = "api.compression-shop.example";

let t: TestApp;
let shop: Shop;
beforeAll(async () => {
  t = makeTestApp();
  shop = await makeShop(t, "Compression Shop", HOST);
  for (let i = 0; i < 8; i++) {
    const res = await shop.admin.post("/v1/admin/products", shirtProduct(`C${i}`));
    expect(res.status).toBe(201);
  }
});
afterAll(() => t.cleanup());

const decoders: Record<string, (bytes: Uint8Array) => Uint8Array> = {
  gzip: (bytes) => Bun.gunzipSync(bytes as Uint8Array<ArrayBuffer>),
  br: (bytes) => brotliDecompressSync(bytes),
  zstd: (bytes) => Bun.zstdDecompressSync(bytes),
};

const fetchRaw = async (path: string, headers: Record<string, string>, method = "GET") => {
  const res = await t.request(path, { method, headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
};

/** Each encoding's body, decoded, is the identity body; its headers say what it is. */
async function expectEveryEncodingDecodesToIdentity(
  path: string,
  headers: Record<string, string>,
  encodings = ["gzip", "br", "zstd"],
) {
  const plain = await fetchRaw(path, { ...headers, "accept-encoding": "identity" });
  expect(plain.res.status).toBe(200);
  expect(plain.res.headers.get("content-encoding")).toBeNull();
  expect(plain.bytes.length).toBeGreaterThan(1024);
  for (const encoding of encodings) {
    const packed = await fetchRaw(path, { ...headers, "accept-encoding": encoding });
    expect(packed.res.status).toBe(200);
    expect(packed.res.headers.get("content-encoding")).toBe(encoding);
    expect(packed.res.headers.get("vary")).toContain("Accept-Encoding");
    expect(packed.bytes.length).toBeLessThan(plain.bytes.length);
    expect(new TextDecoder().decode(decoders[encoding]!(packed.bytes))).toBe(
      new TextDecoder().decode(plain.bytes),
    );
  }
}

describe("Accept-Encoding negotiation", () => {
  test("the highest q-value wins, ties go by preference, q=0 refuses, * stands for the rest", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd", KEPT_PREFERENCE)).toBe("br");
    expect(chooseEncoding("gzip, deflate, br, zstd", FRESH_PREFERENCE)).toBe("zstd");
    expect(chooseEncoding("gzip", KEPT_PREFERENCE)).toBe("gzip");
    expect(chooseEncoding("br;q=0.5, gzip", KEPT_PREFERENCE)).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0.1", KEPT_PREFERENCE)).toBe("gzip");
    expect(chooseEncoding("*", FRESH_PREFERENCE)).toBe("zstd");
    expect(chooseEncoding("*;q=0.5, zstd;q=0", FRESH_PREFERENCE)).toBe("gzip");
    expect(chooseEncoding("GZIP ; Q=0.8", KEPT_PREFERENCE)).toBe("gzip");
  });

  test("identity, nothing acceptable or unreadable q-values leave the body as it is", () => {
    expect(chooseEncoding("identity", KEPT_PREFERENCE)).toBeNull();
    expect(chooseEncoding("", KEPT_PREFERENCE)).toBeNull();
    expect(chooseEncoding("deflate, compress", KEPT_PREFERENCE)).toBeNull();
    expect(chooseEncoding("gzip;q=0", KEPT_PREFERENCE)).toBeNull();
    expect(chooseEncoding("*;q=0", KEPT_PREFERENCE)).toBeNull();
    expect(chooseEncoding("gzip;q=0.3, identity;q=0.9", KEPT_PREFERENCE)).toBeNull();
    expect(chooseEncoding("gzip;q=abc", KEPT_PREFERENCE)).toBeNull();
    expect(chooseEncoding("gzip;q=2", KEPT_PREFERENCE)).toBeNull();
  });
});

describe("compressed answers", () => {
  test("a cached catalog listing decodes to the identity body in gzip, Brotli and zstd", async () => {
    await expectEveryEncodingDecodesToIdentity("/v1/products?limit=100", { host: HOST });
  });

  test("each encoding of a cached body has its own ETag, and any of them revalidates it", async () => {
    const plain = await fetchRaw("/v1/products", { host: HOST });
    const gzip = await fetchRaw("/v1/products", { host: HOST, "accept-encoding": "gzip" });
    const plainTag = plain.res.headers.get("etag")!;
    const gzipTag = gzip.res.headers.get("etag")!;
    expect(gzipTag).not.toBe(plainTag);
    const revalidated = await fetchRaw("/v1/products", {
      host: HOST,
      "accept-encoding": "br",
      "if-none-match": gzipTag,
    });
    expect(revalidated.res.status).toBe(304);
    expect(revalidated.bytes.length).toBe(0);
    expect(revalidated.res.headers.get("content-encoding")).toBeNull();
  });

  test("an answer rendered per request (admin listing) is compressed too", async () => {
    await expectEveryEncodingDecodesToIdentity("/v1/admin/products?limit=100", { "x-api-key": shop.org.key });
  });

  test("the OpenAPI document and the docs viewer are compressed", async () => {
    await expectEveryEncodingDecodesToIdentity("/v1/openapi.json", {});
    const page = await (await t.request("/v1/docs")).text();
    const scripts = [...page.matchAll(/src="([^"]+)"/g)].map((match) => match[1]!);
    // The viewer is over 4 MB: one encoding (the fastest) shows it, the listing shows them all.
    const viewer = scripts.find((path) => path.includes("scalar"));
    if (viewer) await expectEveryEncodingDecodesToIdentity(viewer, {}, ["zstd"]);
  });

  test("bodies under 1 KB are sent as they are", async () => {
    for (const [path, headers] of [
      ["/v1/health", {}],
      ["/v1/store", { host: HOST }],
    ] as const) {
      const res = await t.request(path, { headers: { ...headers, "accept-encoding": "gzip, br, zstd" } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBeNull();
      expect((await res.text()).length).toBeLessThan(1024);
    }
  });

  test("HEAD of a compressed answer carries its headers and no body", async () => {
    const head = await fetchRaw("/v1/products?limit=100", { host: HOST, "accept-encoding": "gzip" }, "HEAD");
    expect(head.res.status).toBe(200);
    expect(head.res.headers.get("content-encoding")).toBe("gzip");
    expect(head.bytes.length).toBe(0);
  });
});
