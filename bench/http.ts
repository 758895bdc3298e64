// The storefront HTTP pipeline, two parts (BENCH_PARTS, both by default). `listing`: a cached
// catalog listing sent compressed against the same listing uncompressed, a 304 revalidation against
// the full 200, and the listing's bytes on the wire in each encoding. `carts`: the cart writes a
// shopper's first clicks make (a new cart with one item, without and with an Idempotency-Key, and
// "+1" on an existing cart), each against its floor in bench/add-to-cart-floor-server.ts. One
// service, measured with wrk. Usage: bun bench/http.ts
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  addToCartLua,
  type Child,
  createApiKey,
  createCartLua,
  createOrg,
  ensureWrk,
  envInt,
  fmt,
  LOOPBACK,
  loadSettings,
  luaString,
  makeTempDir,
  median,
  must,
  printTable,
  runWrk,
  saveResults,
  seedProducts,
  spawnServer,
  startService,
  summarizeRuns,
  type WrkResult,
} from "./lib.ts";

/** Compressed req/s ÷ uncompressed req/s of the cached listing must stay at or above this. */
const TARGET_RATIO = 0.9;
const HOST = "shop.bench.example";
const PATH = "/v1/products?limit=100";

// Short runs: the figures are medians of a few rounds, and the whole run stays under ~3 minutes.
const base = loadSettings();
const settings = {
  ...base,
  duration: envInt("BENCH_DURATION", 5),
  warmup: envInt("BENCH_WARMUP", 2, 0),
  rounds: envInt("BENCH_ROUNDS", 3),
};
const products = envInt("BENCH_PRODUCTS", 300);
const PARTS = ["listing", "carts"] as const;
type Part = (typeof PARTS)[number];
const parts = new Set<Part>(
  (process.env.BENCH_PARTS?.trim() || PARTS.join(",")).split(",").map((part) => {
    const name = part.trim();
    if (!(PARTS as readonly string[]).includes(name)) {
      throw new Error(`BENCH_PARTS takes ${PARTS.join(", ")}, comma-separated (got "${name}")`);
    }
    return name as Part;
  }),
);
ensureWrk();
console.log(
  `http benchmark (${[...parts].join(", ")}): wrk -t${settings.threads} -c${settings.connections} ` +
    `-d${settings.duration}s, ${settings.rounds} rounds, warm-up ${settings.warmup}s`,
);

interface Variant {
  name: string;
  headers: Record<string, string>;
  expectStatus: number;
}

/** Status, encoding, ETag and bytes on the wire of one answer (Bun's fetch would decode the body). */
async function probe(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers, decompress: false });
  const body = new Uint8Array(await response.arrayBuffer());
  return {
    status: response.status,
    encoding: response.headers.get("content-encoding") ?? "identity",
    etag: response.headers.get("etag") ?? "",
    bytes: body.length,
  };
}

/** A run with any error answer or socket error measures something else: it stops the benchmark. */
function checked(label: string, result: WrkResult): WrkResult {
  if (result.non2xx > 0 || result.socketErrors > 0) {
    throw new Error(`${label}: ${result.non2xx} error responses, ${result.socketErrors} socket errors`);
  }
  return result;
}

/** The `listing` part: a cacheable listing in each encoding and revalidated; true when its target is met. */
async function listingPart(service: Child, orgId: string): Promise<boolean> {
  await seedProducts(service.dataDir, orgId, products);
  console.log(`\nlisting: GET ${PATH} on ${products} seeded products`);
  const url = `${service.url}${PATH}`;
  // "Host" spelled as wrk spells it, so that wrk sends no Host of its own.
  const host = { Host: HOST };
  const wire: { encoding: string; bytes: number; etag: string }[] = [];
  for (const encoding of ["identity", "gzip", "br", "zstd"]) {
    const answer = await probe(url, { ...host, "Accept-Encoding": encoding });
    if (answer.status !== 200 || answer.encoding !== encoding) {
      throw new Error(`GET ${PATH} with Accept-Encoding ${encoding}: ${answer.status} ${answer.encoding}`);
    }
    wire.push({ encoding, bytes: answer.bytes, etag: answer.etag });
  }
  const identityBytes = wire[0]!.bytes;
  const gzipTag = wire[1]!.etag;
  const notModified = await probe(url, { ...host, "Accept-Encoding": "gzip", "If-None-Match": gzipTag });
  if (notModified.status !== 304 || notModified.bytes !== 0) {
    throw new Error(`revalidation answered ${notModified.status} with ${notModified.bytes} bytes`);
  }

  const variants: Variant[] = [
    { name: "200 identity", headers: { ...host, "Accept-Encoding": "identity" }, expectStatus: 200 },
    { name: "200 gzip", headers: { ...host, "Accept-Encoding": "gzip" }, expectStatus: 200 },
    { name: "200 br", headers: { ...host, "Accept-Encoding": "br" }, expectStatus: 200 },
    {
      name: "304 gzip",
      headers: { ...host, "Accept-Encoding": "gzip", "If-None-Match": gzipTag },
      expectStatus: 304,
    },
  ];
  const load = (duration: number, variant: Variant) => ({
    duration,
    connections: settings.connections,
    threads: settings.threads,
    headers: variant.headers,
  });
  if (settings.warmup > 0) {
    for (const variant of variants)
      checked(`warm-up ${variant.name}`, await runWrk(url, load(settings.warmup, variant)));
  }
  const runs = new Map(variants.map((variant) => [variant.name, [] as WrkResult[]]));
  for (let round = 1; round <= settings.rounds; round++) {
    // Each round in another order, so that no variant always runs on a warmer (or busier) machine.
    const order = variants.map((_, i) => variants[(i + round - 1) % variants.length]!);
    for (const variant of order) {
      const result = checked(variant.name, await runWrk(url, load(settings.duration, variant)));
      runs.get(variant.name)!.push(result);
      console.log(
        `round ${round}/${settings.rounds} ${variant.name.padEnd(13)} ${fmt(result.rps, 0).padStart(8)} req/s  ` +
          `p50 ${fmt(result.p50Ms)} ms  p99 ${fmt(result.p99Ms)} ms`,
      );
    }
  }

  const ratioOf = (a: string, b: string) => {
    const [x, y] = [runs.get(a)!, runs.get(b)!];
    return median(x.map((run, i) => run.rps / y[i]!.rps));
  };
  const gzipRatio = ratioOf("200 gzip", "200 identity");
  const revalidationRatio = ratioOf("304 gzip", "200 gzip");

  console.log(`\nGET ${PATH} (${products} products seeded), medians of ${settings.rounds} rounds:`);
  printTable(
    ["answer", "req/s", "p50 ms", "p99 ms"],
    variants.map((variant) => {
      const { rps, p50Ms, p99Ms } = summarizeRuns(runs.get(variant.name)!);
      return [variant.name, fmt(rps, 0), fmt(p50Ms), fmt(p99Ms)];
    }),
  );
  console.log("\nbytes on the wire:");
  printTable(
    ["encoding", "bytes", "of identity"],
    [...wire.map((w) => [w.encoding, String(w.bytes), fmt(w.bytes / identityBytes, 3)]), ["304", "0", "0"]],
  );
  const met = gzipRatio >= TARGET_RATIO;
  console.log(
    `\ngzip ÷ identity req/s: ${fmt(gzipRatio)} (target ≥ ${TARGET_RATIO}: ${met ? "met" : "NOT met"})` +
      `\n304 ÷ 200 gzip req/s: ${fmt(revalidationRatio)}` +
      `\nbr ÷ identity req/s: ${fmt(ratioOf("200 br", "200 identity"))}`,
  );
  const file = saveResults("http", {
    host: LOOPBACK,
    path: PATH,
    products,
    settings,
    wire,
    runs: Object.fromEntries(runs),
    ratios: { gzipOverIdentity: gzipRatio, notModifiedOverFull: revalidationRatio },
    target: { ratio: TARGET_RATIO, met },
  });
  console.log(`results saved to ${file}`);
  return met;
}

// ------------------------------------------------------------------------------------------------
// Cart writes

/** Service req/s ÷ floor req/s (median of the per-round ratios) each cart write must reach. */
const CART_TARGETS = { create: 0.75, "create keyed": 0.6, "+1": 0.75 } as const;
type CartScenario = keyof typeof CART_TARGETS;
const CART_SCENARIOS = Object.keys(CART_TARGETS) as CartScenario[];
const CART_DESCRIPTION: Record<CartScenario, string> = {
  create: 'POST /v1/carts {"items":[{variantId, quantity: 1}]}',
  "create keyed": "the same with a new Idempotency-Key on every request",
  "+1": "POST /v1/carts/{id}/items {variantId, quantity: 1} on existing carts",
};
const ON_HAND = 1_000_000_000;
const MAX_QUANTITY = 999; // per cart line (src/cart/service.ts)

interface CartRow {
  scenario: CartScenario;
  service: ReturnType<typeof summarizeRuns>;
  floor: ReturnType<typeof summarizeRuns>;
  ratio: number;
  roundRatios: number[];
  target: number;
  met: boolean;
}

/**
 * The wrk script of a scenario on one target, written to `file`. `create` alternates the two
 * variants; `create keyed` also sends an Idempotency-Key no request of any run used before (made
 * per request in Lua, the same on both targets); `+1` walks `carts` with variant A, then with B, round
 * and round (a cart made with A gets its B line on the first pass, then raises both), each thread
 * from its own offset.
 */
function writeCartScript(file: string, scenario: CartScenario, variants: string[], carts: string[]) {
  // `create keyed` replaces the rotation's request() with one that makes a new key per request.
  const keyed = `local prefix = ${luaString(crypto.randomUUID())}
local sent = 0
function request()
  sent = sent + 1
  headers["Idempotency-Key"] = prefix .. "-" .. tid .. "-" .. sent
  return wrk.format("POST", "/v1/carts", headers, bodies[sent % #bodies + 1])
end
`;
  const text =
    scenario === "+1"
      ? addToCartLua(HOST, carts, variants)
      : createCartLua(HOST, variants) + (scenario === "create keyed" ? keyed : "");
  writeFileSync(file, `-- Generated by bench/http.ts: ${scenario}.\n${text}`);
}

/** The shop of the cart writes: two single-variant products, stock tracked with 10⁹ on hand. */
async function cartShop(service: Child, orgId: string) {
  const apiKey = await createApiKey(service.dataDir, orgId, "admin");
  const admin = { "x-api-key": apiKey.key };
  const product = (sku: string, name: string, price: number) =>
    must<{ id: string; variants: { id: string }[] }>(
      service.url,
      "POST",
      "/v1/admin/products",
      { name: { en: name }, variants: [{ sku, price, inventory: { tracked: true, onHand: ON_HAND } }] },
      admin,
    );
  const made = [await product("CART-MUG", "Cart mug", 1299), await product("CART-TEE", "Cart tee", 1999)];
  return made.map((p, i) => ({ id: p.variants[0]!.id, productId: p.id, price: [1299, 1999][i]! }));
}

/** The `cart` part: each cart write against its floor; true when every target is met. */
async function cartsPart(service: Child, orgId: string): Promise<boolean> {
  const shop = await cartShop(service, orgId);
  const variants = shop.map((v) => v.id);
  const tmp = makeTempDir("http-carts");
  const floor = await spawnServer({
    label: "cart-floor",
    command: [process.execPath, "bench/add-to-cart-floor-server.ts"],
    env: { FLOOR_DB: join(tmp, "floor.sqlite"), FLOOR_VARIANTS: JSON.stringify(shop), FLOOR_ADD: "merge" },
  });
  // Each "+1" run gets fresh carts, enough that no line reaches 999 even at 30 000 req/s.
  const cartCount = Math.max(
    200,
    Math.ceil((30_000 * Math.max(settings.duration, settings.warmup)) / (2 * (MAX_QUANTITY - 50))),
  );
  console.log(
    `\ncarts: ${CART_SCENARIOS.map((s) => `${s}: ${CART_DESCRIPTION[s]}`).join("; ")}; "+1" over ${cartCount} ` +
      `fresh carts per run; floor at ${floor.url}`,
  );
  const targets = { service, floor };
  type Target = keyof typeof targets;
  let scripts = 0;
  const run = async (scenario: CartScenario, target: Target, duration: number, label: string) => {
    const server = targets[target];
    const carts: string[] = [];
    while (scenario === "+1" && carts.length < cartCount) {
      const made = await Promise.all(
        Array.from({ length: 16 }, () =>
          must<{ id: string }>(
            server.url,
            "POST",
            "/v1/carts",
            { items: [{ variantId: variants[0], quantity: 1 }] },
            {
              host: HOST,
            },
          ),
        ),
      );
      carts.push(...made.map((cart) => cart.id));
    }
    const script = join(tmp, `cart-${++scripts}.lua`);
    writeCartScript(script, scenario, variants, carts);
    const load = { duration, connections: settings.connections, threads: settings.threads, script };
    const result = checked(`${label} ${scenario} on the ${target}`, await runWrk(server.url, load));
    rmSync(script, { force: true });
    console.log(
      `${label.padEnd(10)} ${scenario.padEnd(12)} ${target.padEnd(7)} ${fmt(result.rps, 0).padStart(7)} req/s  ` +
        `p50 ${fmt(result.p50Ms)} ms  p99 ${fmt(result.p99Ms)} ms`,
    );
    return result;
  };
  try {
    const rows: CartRow[] = [];
    for (const scenario of CART_SCENARIOS) {
      if (settings.warmup > 0) {
        for (const target of ["service", "floor"] as const)
          await run(scenario, target, settings.warmup, "warm-up");
      }
      const runs = { service: [] as WrkResult[], floor: [] as WrkResult[] };
      for (let round = 1; round <= settings.rounds; round++) {
        const order = round % 2 === 1 ? (["service", "floor"] as const) : (["floor", "service"] as const);
        for (const target of order) {
          runs[target].push(
            await run(scenario, target, settings.duration, `round ${round}/${settings.rounds}`),
          );
        }
      }
      const roundRatios = runs.service.map((r, i) => r.rps / runs.floor[i]!.rps);
      const ratio = median(roundRatios);
      rows.push({
        scenario,
        service: summarizeRuns(runs.service),
        floor: summarizeRuns(runs.floor),
        ratio,
        roundRatios,
        target: CART_TARGETS[scenario],
        met: ratio >= CART_TARGETS[scenario],
      });
    }
    console.log(
      `\ncart writes, medians of ${settings.rounds} rounds (ratio: median of the per-round ratios):`,
    );
    printTable(
      ["scenario", "req/s", "p50 ms", "p99 ms", "floor req/s", "floor p50 ms", "ratio (rounds)", "target"],
      rows.map((r) => [
        r.scenario,
        fmt(r.service.rps, 0),
        fmt(r.service.p50Ms),
        fmt(r.service.p99Ms),
        fmt(r.floor.rps, 0),
        fmt(r.floor.p50Ms),
        `${fmt(r.ratio)} (${r.roundRatios.map((x) => fmt(x)).join(", ")})`,
        `≥ ${r.target} ${r.met ? "met" : "NOT met"}`,
      ]),
    );
    const file = saveResults("http-carts", { host: LOOPBACK, settings, cartCount, rows });
    console.log(`results saved to ${file}`);
    return rows.every((row) => row.met);
  } finally {
    await floor.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}
const service = await startService();
try {
  const org = await createOrg(service.dataDir, { host: HOST });
  let met = true;
  if (parts.has("listing")) met = (await listingPart(service, org.id)) && met;
  if (parts.has("carts")) met = (await cartsPart(service, org.id)) && met;
  if (!met) process.exitCode = 1;
} finally {
  await service.stop();
}
