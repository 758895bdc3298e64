import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SESSION_COOKIE } from "../../src/auth/caller.ts";
import { DATA_VERSION_CHECK_MS } from "../../src/core/response-cache.ts";
import { cookieFrom, jsonBody, makeTestApp, type TestApp } from "../helpers/app.ts";
import { runCli } from "../helpers/cli.ts";
import { collectLog } from "../helpers/log.ts";
import { makeShop, type Shop } from "../helpers/shop.ts";

// A repeated anonymous catalog read on a shop's Host is answered before routing, from the body the
// shop keeps for that URL (src/http/adapter.ts `answerKept`). What must not change: the answer is
// the one the whole way gives, a credential is always checked, a Host answers only for its shop,
// and a change of the data (through the service, or by another process) shows.

let t: TestApp;
let shop: Shop;
let other: Shop;
const lines: Record<string, unknown>[] = [];
const LISTING = "/v1/products?limit=5";

beforeAll(async () => {
  t = makeTestApp();
  collectLog(t.app.ctx.log, lines, ["info"]);
  shop = await makeShop(t, "Kept Shop", "kept.example");
  other = await makeShop(t, "Other Shop", "other-kept.example");
  await other.admin.patch(`/v1/admin/products/${other.shirt.id}`, { name: { en: "Other shirt" } });
});
afterAll(() => t.cleanup());

const read = (host: string, path = LISTING, headers: Record<string, string> = {}) =>
  t.request(path, { headers: { host, "accept-encoding": "identity", ...headers } });

/** The headers of an answer that every answer of this URL shares (all but its request id). */
const sharedHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => name !== "x-request-id"));

describe("a kept catalog answer, asked again anonymously on the shop's Host", () => {
  test("is the same answer as the first: status, headers and bytes, with its own request id, without running the operation", async () => {
    const first = await read(shop.host);
    const firstBody = await first.text();
    const executor = t.app.executor;
    const execute = executor.execute;
    let executed = 0;
    executor.execute = (...args) => {
      executed++;
      return execute.apply(executor, args);
    };
    let again: Response;
    try {
      again = await read(shop.host, LISTING, { "x-request-id": "kept-again" });
    } finally {
      executor.execute = execute;
    }
    expect(executed).toBe(0);
    expect(again.status).toBe(first.status);
    expect(sharedHeaders(again)).toEqual(sharedHeaders(first));
    expect(again.headers.get("x-request-id")).toBe("kept-again");
    expect(await again.text()).toBe(firstBody);
    expect(JSON.parse(firstBody).data[0].name.en).toBe(shop.shirt.name.en);
  });

  test("is logged like any request: its route, shop and caller", async () => {
    await read(shop.host);
    await read(shop.host, LISTING, { "x-request-id": "kept-logged" });
    expect(lines.find((line) => line.requestId === "kept-logged")).toMatchObject({
      msg: "request",
      method: "GET",
      route: "/v1/products",
      status: 200,
      org: shop.org.id,
      caller: "host",
    });
  });

  test("revalidates: If-None-Match with its ETag is a 304; another spelling of the query is the same data", async () => {
    const first = await read(shop.host);
    const etag = first.headers.get("etag")!;
    await read(shop.host);
    const revalidated = await read(shop.host, LISTING, { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("etag")).toBe(etag);
    const reordered = await read(shop.host, "/v1/products?limit=5&page=1");
    expect(reordered.headers.get("etag")).toBe(etag);
  });

  test("answers only its own shop: the other shop's Host on the same URL gets the other shop's products", async () => {
    await read(shop.host);
    const theirs = await read(other.host);
    const body = (await theirs.json()) as { data: { name: { en: string } }[] };
    expect(body.data.map((p) => p.name.en)).toEqual(["Other shirt"]);
  });

  test("never stands in for a credential: a wrong API key, bearer token or session cookie on a kept URL is a 401", async () => {
    await read(shop.host);
    await read(shop.host);
    for (const headers of <Record<string, string>[]>[
      { "x-api-key": "sk_wrong" },
      { authorization: "Bearer not-a-token" },
      { cookie: `${SESSION_COOKIE}=signed-out` },
    ]) {
      const refused = await read(shop.host, LISTING, headers);
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { code: string }).code).toBe("UNAUTHORIZED");
    }
    // A cookie that is not the session's leaves the caller anonymous, as on the whole way.
    const anonymous = await read(shop.host, LISTING, { cookie: "theme=dark" });
    expect(anonymous.status).toBe(200);
  });

  test("stops at once when the Host no longer names the shop", async () => {
    const added = await shop.admin.post("/v1/admin/domains", { host: "moving-kept.example" });
    expect(added.status).toBe(201);
    expect((await read("moving-kept.example")).status).toBe(200);
    expect((await read("moving-kept.example")).status).toBe(200);
    const removed = await t.request("/v1/admin/domains/moving-kept.example", {
      method: "DELETE",
      headers: { "x-api-key": shop.org.key },
    });
    expect(removed.status).toBe(204);
    const gone = await read("moving-kept.example");
    expect(gone.status).toBe(401);
  });

  test("a change through the service shows on the next read", async () => {
    await read(shop.host);
    await read(shop.host);
    const renamed = await shop.admin.patch(`/v1/admin/products/${shop.shirt.id}`, {
      name: { en: "Renamed" },
    });
    expect(renamed.status).toBe(200);
    const after = (await (await read(shop.host)).json()) as { data: { name: { en: string } }[] };
    expect(after.data[0]!.name.en).toBe("Renamed");
  });

  test("a write by another process (commerce seed) shows on the first read DATA_VERSION_CHECK_MS after it", async () => {
    const total = async () =>
      ((await (await read(shop.host)).json()) as { meta: { total: number } }).meta.total;
    const before = await total();
    expect(await total()).toBe(before);
    const seeded = await runCli(["seed", "--products", "2", "--org", shop.org.id, "--json"], {
      DATA_DIR: t.dataDir,
    });
    expect(seeded.code).toBe(0);
    await Bun.sleep(DATA_VERSION_CHECK_MS + 1);
    expect(await total()).toBe(before + 2);
  });

  test("a dashboard session reads the same URL as its own organization, not as the Host's anonymous caller", async () => {
    await read(shop.host);
    await read(shop.host);
    const signUp = await t.request(
      "/api/auth/sign-up/email",
      jsonBody({ email: "kept-owner@example.com", password: "correct horse battery" }),
    );
    expect(signUp.status).toBe(201);
    const cookie = cookieFrom(signUp);
    // Signed in without an organization: the session is the caller, and it has none to read.
    const refused = await read(shop.host, LISTING, { cookie });
    expect(refused.status).toBe(403);
  });
});
