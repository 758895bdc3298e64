// Load benchmark of buying: add-to-cart and create-cart-with-item with wrk, each against a bare
// Bun.serve + SQLite floor (bench/add-to-cart-floor-server.ts), then whole purchases (create cart, add two items, shipping
// address, shipping method, place order) by concurrent buyers on one tenant, orders committed
// durably. Usage: bun bench/purchase.ts (see bench/README.md).
import { rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import {
  addToCartLua,
  type Child,
  call,
  cpuSeconds,
  createApiKey,
  createCartLua,
  createOrg,
  ensureWrk,
  envInt,
  fmt,
  loadSettings,
  makeTempDir,
  median,
  must,
  PT_ADDRESS,
  percentile,
  printTable,
  runWrk,
  saveResults,
  spawnServer,
  startService,
  type WrkResult,
} from "./lib.ts";

const TARGET_ADD_RPS = 2500;
const TARGET_ADD_RATIO = 0.5;
const TARGET_CREATE_RATIO = 0.6;
const TARGET_PURCHASES = 300;

const HOST = "shop.bench.example";
const ON_HAND = 1_000_000_000;
const MAX_QUANTITY = 999; // per cart line (src/cart/service.ts)

/**
 * The service caches a tenant's store settings in memory, but only when they are read outside a
 * transaction (src/catalog/store.ts): a storefront read (GET) fills the cache, a store update drops
 * it, and tenant writes (every step measured here) never fill it. Traffic of writes only therefore
 * re-reads the settings on every request. Both states are measured, each set up explicitly.
 */
const STORE_STATES = ["uncached", "cached"] as const;
type StoreState = (typeof STORE_STATES)[number];
const STATE_LABEL: Record<StoreState, string> = {
  uncached: "store settings uncached (writes only)",
  cached: "store settings cached (after a read)",
};

/** The wrk scenarios, each measured against its floor in bench/add-to-cart-floor-server.ts. */
const WRK_SCENARIOS = ["add-to-cart", "create-cart"] as const;
type WrkScenario = (typeof WRK_SCENARIOS)[number];
const WRK_TARGETS = ["service-uncached", "service-cached", "floor"] as const;
type WrkTarget = (typeof WRK_TARGETS)[number];
const WRK_DESCRIPTION: Record<WrkScenario, string> = {
  "add-to-cart": "add-to-cart: POST /v1/carts/{id}/items {variantId, quantity: 1}",
  "create-cart": 'create cart with item: POST /v1/carts {"items":[{variantId, quantity: 1}]}',
};
const FLOOR_LABEL: Record<WrkScenario, string> = {
  "add-to-cart": "floor: Bun.serve + 1 INSERT",
  "create-cart": "floor: Bun.serve + price + 2 INSERTs",
};
const PARTS = [...WRK_SCENARIOS, "purchases"] as const;
type Part = (typeof PARTS)[number];

function partsFromEnv(): Set<Part> {
  const raw = process.env.BENCH_PARTS?.trim();
  if (!raw) return new Set(PARTS);
  const chosen = raw.split(",").map((p) => p.trim());
  for (const part of chosen) {
    if (!(PARTS as readonly string[]).includes(part)) {
      throw new Error(`BENCH_PARTS takes ${PARTS.join(", ")}, comma-separated (got "${raw}")`);
    }
  }
  return new Set(chosen as Part[]);
}

const settings = loadSettings();
const parts = partsFromEnv();
const buyers = envInt("BENCH_BUYERS", 16);
// Each wrk run gets fresh carts, enough that no line reaches 999 even at 30 000 req/s.
const cartCount = Math.max(
  envInt("BENCH_CARTS", 200),
  Math.ceil((30_000 * Math.max(settings.duration, settings.warmup)) / (2 * (MAX_QUANTITY - 50))),
);
ensureWrk();

const tmp = makeTempDir("purchase");
const fsType = Bun.spawnSync(["stat", "-f", "-c", "%T", tmp]).stdout.toString().trim() || "unknown";
const loadBefore = loadavg();
console.log(
  `purchase benchmark (${[...parts].join(", ")}): wrk -t${settings.threads} -c${settings.connections} ` +
    `-d${settings.duration}s, add-to-cart over ${cartCount} fresh carts × 2 variants per run; purchases by ${buyers} concurrent buyers for ` +
    `${settings.duration}s; ${settings.rounds} rounds, warm-up ${settings.warmup}s; temp file system: ${fsType}; ` +
    `service LOG_LEVEL=${process.env.BENCH_LOG_LEVEL ?? process.env.LOG_LEVEL ?? "(default: info)"}, stdout ` +
    `discarded; load average ${loadBefore.map((l) => fmt(l)).join(" ")}`,
);
if (fsType === "tmpfs")
  console.warn("warning: tmpfs never syncs to disk; set TMPDIR to a disk-backed directory");

const ownCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

// ---------------------------------------------------------------------------------------------
// wrk with a Lua script

const runWrkScript = (url: string, script: string, duration: number) =>
  runWrk(url, { duration, connections: settings.connections, threads: settings.threads, script });

/**
 * The add-to-cart script: every request POSTs `{variantId, quantity: 1}` to `/v1/carts/{id}/items`,
 * walking all carts with variant A, then all carts with variant B, round and round; each thread
 * starts at its own offset. Requests are formatted once in `init`, so wrk spends no Lua per request.
 */
function writeAddToCartScript(file: string, carts: string[], variants: [string, string]): void {
  writeFileSync(
    file,
    `-- Generated by bench/purchase.ts: add-to-cart rotating over carts and two variants.\n${addToCartLua(HOST, carts, variants)}`,
  );
}

/**
 * The create-cart-with-item script: every request POSTs `{"items":[{variantId, quantity: 1}]}` to
 * `/v1/carts` (a shopper's first add: a new cart with one line), alternating the two variants.
 */
function writeCreateCartScript(file: string, variants: [string, string]): void {
  writeFileSync(
    file,
    `-- Generated by bench/purchase.ts: create a cart with one item, alternating two variants.\n${createCartLua(HOST, variants)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Whole purchases

const STEPS = [
  "create cart",
  "add item A",
  "add item B",
  "shipping address",
  "shipping method",
  "place order",
] as const;
type Step = (typeof STEPS)[number];

interface PurchaseRun {
  state: StoreState;
  seconds: number;
  /** Purchases whose place-order answered 201 before the end of the window. */
  completed: number;
  purchasesPerSecond: number;
  /** Every 201 of place-order, also those finishing after the window (they are still orders). */
  placed: number;
  failures: number;
  failureSamples: string[];
  stepMs: Record<Step, number[]>;
  purchaseMs: number[];
  /** Service CPU seconds per completed purchase, and CPU seconds per second of the window. */
  serviceCpuMsPerPurchase: number;
  serviceBusy: number;
  /** This process (the buyers' fetch client): CPU seconds per second of the window. */
  clientBusy: number;
}

async function runPurchases(
  service: Child,
  seconds: number,
  shop: { variants: [string, string]; shippingMethodId: string },
  state: StoreState,
  label: string,
): Promise<PurchaseRun> {
  const base = service.url;
  const headers = { host: HOST };
  const stepMs = Object.fromEntries(STEPS.map((s) => [s, [] as number[]])) as Record<Step, number[]>;
  const purchaseMs: number[] = [];
  const failureSamples: string[] = [];
  let completed = 0;
  let placed = 0;
  let failures = 0;

  const step = async <T>(name: Step, path: string, body: unknown, expect: number): Promise<T> => {
    const answer = await call(base, "POST", path, body, headers);
    if (answer.status !== expect) {
      throw new Error(`${name}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    stepMs[name].push(answer.ms);
    return (JSON.parse(answer.text) as { data: T }).data;
  };

  const serviceCpuBefore = cpuSeconds(service.proc.pid);
  const clientCpuBefore = ownCpuSeconds();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let serviceCpuAtDeadline = Number.NaN;
  let clientCpuAtDeadline = Number.NaN;
  const timer = setTimeout(() => {
    serviceCpuAtDeadline = cpuSeconds(service.proc.pid);
    clientCpuAtDeadline = ownCpuSeconds();
  }, seconds * 1000);
  const buyer = async (b: number) => {
    for (let n = 0; performance.now() < deadline; n++) {
      const begun = performance.now();
      try {
        // A new guest each purchase: place-order creates a customer for every order.
        const email = `${label}-b${b}-${n}@bench.example`;
        const cart = await step<{ id: string }>("create cart", "/v1/carts", { email }, 201);
        const items = `/v1/carts/${cart.id}/items`;
        await step("add item A", items, { variantId: shop.variants[0], quantity: 1 }, 200);
        await step("add item B", items, { variantId: shop.variants[1], quantity: 1 }, 200);
        await step("shipping address", `/v1/carts/${cart.id}/shipping-address`, PT_ADDRESS, 200);
        await step(
          "shipping method",
          `/v1/carts/${cart.id}/shipping-method`,
          { shippingMethodId: shop.shippingMethodId },
          200,
        );
        const order = await step<{ number: number; items: unknown[] }>(
          "place order",
          `/v1/carts/${cart.id}/place-order`,
          {},
          201,
        );
        if (order.items.length !== 2)
          throw new Error(`order #${order.number} has ${order.items.length} lines`);
        placed++;
        const ended = performance.now();
        purchaseMs.push(ended - begun);
        if (ended <= deadline) completed++;
      } catch (error) {
        failures++;
        if (failureSamples.length < 5) failureSamples.push(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: buyers }, (_, b) => buyer(b)));
  clearTimeout(timer);
  if (Number.isNaN(clientCpuAtDeadline)) {
    serviceCpuAtDeadline = cpuSeconds(service.proc.pid);
    clientCpuAtDeadline = ownCpuSeconds();
  }
  const serviceCpu = serviceCpuAtDeadline - serviceCpuBefore;
  return {
    state,
    seconds,
    completed,
    purchasesPerSecond: completed / seconds,
    placed,
    failures,
    failureSamples,
    stepMs,
    purchaseMs,
    serviceCpuMsPerPurchase: (serviceCpu * 1000) / completed,
    serviceBusy: serviceCpu / seconds,
    clientBusy: (clientCpuAtDeadline - clientCpuBefore) / seconds,
  };
}

// ---------------------------------------------------------------------------------------------

const children: Child[] = [];
try {
  const service = await startService();
  children.push(service);
  const org = await createOrg(service.dataDir, { host: HOST });
  const apiKey = await createApiKey(service.dataDir, org.id, "admin");
  const admin = { "x-api-key": apiKey.key };
  const storefront = { host: HOST };
  console.log(`service at ${service.url}, organization ${org.id} (host ${org.host}), admin key ${apiKey.id}`);

  // The shop: locales en+pt, a PT shipping method, two single-variant products whose stock is
  // tracked with 10⁹ on hand (the real stock-taking path of place-order, and it never runs out).
  const STORE_PATCH = { locales: ["en", "pt"] };
  await must(service.url, "PATCH", "/v1/admin/store", STORE_PATCH, admin);
  const shipping = await must<{ id: string }>(
    service.url,
    "POST",
    "/v1/admin/shipping-methods",
    { name: { en: "Portugal", pt: "Portugal" }, price: 490, freeOver: 5000, countries: ["PT"] },
    admin,
  );
  const product = (sku: string, en: string, pt: string, price: number) =>
    must<{ id: string; variants: { id: string }[] }>(
      service.url,
      "POST",
      "/v1/admin/products",
      {
        name: { en, pt },
        variants: [{ sku, price, inventory: { tracked: true, onHand: ON_HAND } }],
      },
      admin,
    );
  const products = [
    await product("BENCH-MUG", "Bench mug", "Caneca", 1299),
    await product("BENCH-TEE", "Bench tee", "Camisola", 1999),
  ];
  const variants: [string, string] = [products[0]!.variants[0]!.id, products[1]!.variants[0]!.id];
  console.log(
    `shop: shipping method ${shipping.id}, variants ${variants.join(", ")} (tracked, ${ON_HAND} on hand)`,
  );

  // Storefront access by Host header: Bun's fetch sends the Host we set, and the service resolves it.
  const probe = await call(service.url, "POST", "/v1/carts", {}, storefront);
  if (probe.status !== 201)
    throw new Error(`storefront by Host ${HOST} answered ${probe.status}: ${probe.text}`);

  /** Puts the tenant's store-settings cache in the wanted state (see STORE_STATES). */
  const setStoreState = async (state: StoreState) => {
    if (state === "uncached") {
      // A store update (a tenant write, so inside a transaction) drops the cached settings.
      await must(service.url, "PATCH", "/v1/admin/store", STORE_PATCH, admin);
    } else {
      // A storefront read runs outside a transaction and caches them.
      await must(service.url, "GET", "/v1/products?limit=1", undefined, storefront);
    }
  };

  // ------------------------------------------------------------------ wrk scenarios against the floor
  const floorFile = join(tmp, "floor.sqlite");
  const floor = await spawnServer({
    label: "write-floor",
    command: [process.execPath, "bench/add-to-cart-floor-server.ts"],
    env: {
      FLOOR_DB: floorFile,
      FLOOR_VARIANTS: JSON.stringify([
        { id: variants[0], productId: products[0]!.id, price: 1299 },
        { id: variants[1], productId: products[1]!.id, price: 1999 },
      ]),
    },
  });
  children.push(floor);
  console.log(`floor at ${floor.url} (${floorFile})`);

  let scriptSeq = 0;
  /** A fresh script: add-to-cart over fresh carts (no cart line gets near 999 in one run), or creates. */
  const prepareScript = async (scenario: WrkScenario): Promise<{ script: string; carts: string[] }> => {
    const script = join(tmp, `${scenario}-${++scriptSeq}.lua`);
    if (scenario === "create-cart") {
      writeCreateCartScript(script, variants);
      return { script, carts: [] };
    }
    const carts: string[] = [];
    for (let i = 0; i < cartCount; i += 16) {
      const batch = Math.min(16, cartCount - i);
      const made = await Promise.all(
        Array.from({ length: batch }, () =>
          must<{ id: string }>(service.url, "POST", "/v1/carts", {}, storefront),
        ),
      );
      carts.push(...made.map((c) => c.id));
    }
    writeAddToCartScript(script, carts, variants);
    return { script, carts };
  };

  interface WrkRun extends WrkResult {
    /** CPU microseconds the server process spent per request. */
    cpuUsPerRequest: number;
  }
  const wrkRun = async (
    scenario: WrkScenario,
    target: WrkTarget,
    duration: number,
    label: string,
  ): Promise<WrkRun> => {
    const { script, carts } = await prepareScript(scenario);
    const server = target === "floor" ? floor : service;
    if (target !== "floor") await setStoreState(target === "service-cached" ? "cached" : "uncached");
    const cpuBefore = cpuSeconds(server.proc.pid);
    const result = await runWrkScript(server.url, script, duration);
    const cpu = cpuSeconds(server.proc.pid) - cpuBefore;
    rmSync(script, { force: true });
    if (result.non2xx > 0 || result.socketErrors > 0) {
      const perLine =
        scenario === "add-to-cart"
          ? ` (about ${Math.ceil(result.requests / (2 * carts.length)) + settings.threads} adds per cart line)`
          : "";
      throw new Error(
        `${label} ${scenario} on the ${target}: ${result.non2xx} non-2xx responses, ${result.socketErrors} ` +
          `socket errors${perLine}; the figures would not measure ${scenario}`,
      );
    }
    const cpuUsPerRequest = (cpu * 1e6) / result.requests;
    console.log(
      `${label.padEnd(10)} ${scenario.padEnd(11)} ${target.padEnd(16)} ${fmt(result.rps, 0).padStart(6)} req/s  ` +
        `p50 ${fmt(result.p50Ms)} ms  p99 ${fmt(result.p99Ms)} ms  CPU ${fmt(cpuUsPerRequest, 0)} µs/req  ` +
        `(${result.requests} requests, 0 non-2xx)`,
    );
    return { ...result, cpuUsPerRequest };
  };

  interface WrkSummary {
    rps: number;
    p50Ms: number;
    p99Ms: number;
    cpuUsPerRequest: number;
    ratio: number;
    roundRatios: number[];
    runs: WrkRun[];
  }
  const wrkSummaries: Partial<Record<WrkScenario, Record<WrkTarget, WrkSummary>>> = {};
  for (const scenario of WRK_SCENARIOS) {
    if (!parts.has(scenario)) continue;
    if (settings.warmup > 0) {
      for (const target of WRK_TARGETS) await wrkRun(scenario, target, settings.warmup, "warm-up");
    }
    const runs: Record<WrkTarget, WrkRun[]> = { "service-uncached": [], "service-cached": [], floor: [] };
    for (let round = 1; round <= settings.rounds; round++) {
      // Rotate the order each round, so no target always runs first or last.
      const order = WRK_TARGETS.map((_, i) => WRK_TARGETS[(i + round - 1) % WRK_TARGETS.length]!);
      for (const target of order) {
        runs[target].push(
          await wrkRun(scenario, target, settings.duration, `round ${round}/${settings.rounds}`),
        );
      }
    }
    wrkSummaries[scenario] = Object.fromEntries(
      WRK_TARGETS.map((target) => {
        const roundRatios = runs[target].map((r, i) => r.rps / runs.floor[i]!.rps);
        return [
          target,
          {
            rps: median(runs[target].map((r) => r.rps)),
            p50Ms: median(runs[target].map((r) => r.p50Ms)),
            p99Ms: median(runs[target].map((r) => r.p99Ms)),
            cpuUsPerRequest: median(runs[target].map((r) => r.cpuUsPerRequest)),
            ratio: median(roundRatios),
            roundRatios,
            runs: runs[target],
          },
        ];
      }),
    ) as Record<WrkTarget, WrkSummary>;
  }
  await floor.stop();
  children.splice(children.indexOf(floor), 1);

  // ------------------------------------------------------------------ whole purchases
  const shop = { variants, shippingMethodId: shipping.id };
  let placedTotal = 0;
  const report = (label: string, run: PurchaseRun) => {
    placedTotal += run.placed;
    console.log(
      `${label.padEnd(10)} purchases ${run.state.padEnd(8)} ${fmt(run.purchasesPerSecond, 0).padStart(5)}/s  ` +
        `place-order p50 ${fmt(percentile(run.stepMs["place order"], 50))} ms  ` +
        `p99 ${fmt(percentile(run.stepMs["place order"], 99))} ms  service CPU ${fmt(run.serviceCpuMsPerPurchase)} ` +
        `ms/purchase, busy ${fmt(run.serviceBusy * 100, 0)}%, client ${fmt(run.clientBusy * 100, 0)}%  ` +
        `(${run.completed} in ${run.seconds}s, ${run.failures} failures)`,
    );
    if (run.failures > 0) console.warn(`  failures: ${run.failureSamples.join("\n  ")}`);
  };
  const buying = parts.has("purchases");
  if (buying && settings.warmup > 0) {
    for (const state of STORE_STATES) {
      await setStoreState(state);
      report("warm-up", await runPurchases(service, settings.warmup, shop, state, `w-${state}`));
    }
  }
  const purchaseRuns: Record<StoreState, PurchaseRun[]> = { uncached: [], cached: [] };
  for (let round = 1; buying && round <= settings.rounds; round++) {
    const order = round % 2 === 1 ? STORE_STATES : ([...STORE_STATES].reverse() as StoreState[]);
    for (const state of order) {
      await setStoreState(state);
      const run = await runPurchases(service, settings.duration, shop, state, `r${round}-${state}`);
      purchaseRuns[state].push(run);
      report(`round ${round}/${settings.rounds}`, run);
    }
  }

  // Every 201 of place-order is an order in the tenant, and stock went down by one per line.
  const listed = await call(service.url, "GET", "/v1/admin/orders?limit=1", undefined, admin);
  const ordersTotal = (JSON.parse(listed.text) as { meta: { total: number } }).meta.total;
  const stock = await Promise.all(
    products.map(async (p) => {
      const read = await must<{ variants: { inventory: { onHand: number } }[] }>(
        service.url,
        "GET",
        `/v1/admin/products/${p.id}`,
        undefined,
        admin,
      );
      return read.variants[0]!.inventory.onHand;
    }),
  );
  const ordersMatch = ordersTotal === placedTotal;
  const stockMatches = stock.every((onHand) => onHand === ON_HAND - placedTotal);
  const loadAfter = loadavg();

  // ------------------------------------------------------------------ report
  for (const scenario of WRK_SCENARIOS) {
    const summary = wrkSummaries[scenario];
    if (!summary) continue;
    console.log(
      `\n${WRK_DESCRIPTION[scenario]} by Host ${HOST}, wrk -t${settings.threads} ` +
        `-c${settings.connections} -d${settings.duration}s, medians of ${settings.rounds} rounds`,
    );
    printTable(
      ["target", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "ratio to floor"],
      WRK_TARGETS.map((target) => {
        const s = summary[target];
        return [
          target === "floor"
            ? FLOOR_LABEL[scenario]
            : `service, ${STATE_LABEL[target === "service-cached" ? "cached" : "uncached"]}`,
          fmt(s.rps, 0),
          fmt(s.p50Ms),
          fmt(s.p99Ms),
          fmt(s.cpuUsPerRequest, 0),
          target === "floor" ? "" : `${fmt(s.ratio)} (${s.roundRatios.map((r) => fmt(r)).join(", ")})`,
        ];
      }),
    );
  }

  const pooled = (state: StoreState, step: Step) => purchaseRuns[state].flatMap((r) => r.stepMs[step]);
  const whole = (state: StoreState) => purchaseRuns[state].flatMap((r) => r.purchaseMs);
  const purchaseSummary = Object.fromEntries(
    STORE_STATES.map((state) => {
      const runs = purchaseRuns[state];
      return [
        state,
        {
          purchasesPerSecond: median(runs.map((r) => r.purchasesPerSecond)),
          perRound: runs.map((r) => r.purchasesPerSecond),
          failures: runs.reduce((sum, r) => sum + r.failures, 0),
          placeOrder: {
            p50Ms: percentile(pooled(state, "place order"), 50),
            p99Ms: percentile(pooled(state, "place order"), 99),
          },
          purchase: { p50Ms: percentile(whole(state), 50), p99Ms: percentile(whole(state), 99) },
          steps: Object.fromEntries(
            STEPS.map((s) => [
              s,
              { p50Ms: percentile(pooled(state, s), 50), p99Ms: percentile(pooled(state, s), 99) },
            ]),
          ),
          serviceCpuMsPerPurchase: median(runs.map((r) => r.serviceCpuMsPerPurchase)),
          serviceBusy: median(runs.map((r) => r.serviceBusy)),
          clientBusy: median(runs.map((r) => r.clientBusy)),
        },
      ];
    }),
  ) as Record<
    StoreState,
    {
      purchasesPerSecond: number;
      perRound: number[];
      failures: number;
      placeOrder: { p50Ms: number; p99Ms: number };
      purchase: { p50Ms: number; p99Ms: number };
      steps: Record<Step, { p50Ms: number; p99Ms: number }>;
      serviceCpuMsPerPurchase: number;
      serviceBusy: number;
      clientBusy: number;
    }
  >;

  if (buying) {
    console.log(
      `\nwhole purchase: ${buyers} concurrent buyers on one tenant, ${settings.duration}s per round, ` +
        `purchases/s median of ${settings.rounds} rounds; latencies over all purchases of the rounds`,
    );
    printTable(
      [
        "state",
        "purchases/s",
        "place-order p50 ms",
        "p99 ms",
        "purchase p50 ms",
        "p99 ms",
        "service CPU ms/purchase",
        "service busy",
        "client busy",
      ],
      STORE_STATES.map((state) => {
        const s = purchaseSummary[state];
        return [
          STATE_LABEL[state],
          `${fmt(s.purchasesPerSecond, 0)} (${s.perRound.map((r) => fmt(r, 0)).join(", ")})`,
          fmt(s.placeOrder.p50Ms),
          fmt(s.placeOrder.p99Ms),
          fmt(s.purchase.p50Ms),
          fmt(s.purchase.p99Ms),
          fmt(s.serviceCpuMsPerPurchase),
          `${fmt(s.serviceBusy * 100, 0)}%`,
          `${fmt(s.clientBusy * 100, 0)}%`,
        ];
      }),
    );
    console.log("");
    printTable(
      ["step", ...STORE_STATES.flatMap((state) => [`${state} p50 ms`, "p99 ms"])],
      STEPS.map((step) => [
        step,
        ...STORE_STATES.flatMap((state) => [
          fmt(purchaseSummary[state].steps[step].p50Ms),
          fmt(purchaseSummary[state].steps[step].p99Ms),
        ]),
      ]),
    );
  }
  const failuresTotal = STORE_STATES.reduce((sum, state) => sum + purchaseSummary[state].failures, 0);
  console.log(
    `  failures: ${failuresTotal}; orders in the tenant: ${ordersTotal}, place-order 201s: ${placedTotal} → ` +
      `${ordersMatch ? "equal" : "DIFFERENT"}; stock ${stock.join(", ")} = ${ON_HAND} − ${placedTotal}: ` +
      `${stockMatches ? "yes" : "NO"}`,
  );
  console.log(
    `  load average before ${loadBefore.map((l) => fmt(l)).join(" ")}, after ${loadAfter
      .map((l) => fmt(l))
      .join(" ")} (this machine has 2 cores; other processes skew the figures)`,
  );

  const say = (ok: boolean) => (ok ? "met" : "NOT met");
  const met = Object.fromEntries(
    STORE_STATES.map((state) => {
      const target = state === "cached" ? "service-cached" : "service-uncached";
      const add = wrkSummaries["add-to-cart"]?.[target];
      const create = wrkSummaries["create-cart"]?.[target];
      const buy = purchaseSummary[state];
      return [
        state,
        {
          addRps: add ? add.rps >= TARGET_ADD_RPS : null,
          addRatio: add ? add.ratio >= TARGET_ADD_RATIO : null,
          createRatio: create ? create.ratio >= TARGET_CREATE_RATIO : null,
          purchases: buying ? buy.purchasesPerSecond >= TARGET_PURCHASES && buy.failures === 0 : null,
        },
      ];
    }),
  ) as Record<
    StoreState,
    {
      addRps: boolean | null;
      addRatio: boolean | null;
      createRatio: boolean | null;
      purchases: boolean | null;
    }
  >;
  console.log("\ntargets:");
  for (const state of STORE_STATES) {
    const target = state === "cached" ? "service-cached" : "service-uncached";
    const add = wrkSummaries["add-to-cart"]?.[target];
    const create = wrkSummaries["create-cart"]?.[target];
    const buy = purchaseSummary[state];
    const verdicts: string[] = [];
    if (add) {
      verdicts.push(
        `add-to-cart ≥ ${TARGET_ADD_RPS} req/s ${say(met[state].addRps!)} (${fmt(add.rps, 0)}); ` +
          `ratio ≥ ${TARGET_ADD_RATIO} ${say(met[state].addRatio!)} (${fmt(add.ratio)})`,
      );
    }
    if (create) {
      verdicts.push(
        `create cart with item ratio ≥ ${TARGET_CREATE_RATIO} ${say(met[state].createRatio!)} (${fmt(create.ratio)})`,
      );
    }
    if (buying) {
      verdicts.push(
        `purchases ≥ ${TARGET_PURCHASES}/s ${say(met[state].purchases!)} (${fmt(buy.purchasesPerSecond, 0)}); ` +
          `place-order p50 ${fmt(buy.placeOrder.p50Ms)} ms, p99 ${fmt(buy.placeOrder.p99Ms)} ms with ${buyers} buyers`,
      );
    }
    console.log(`  ${STATE_LABEL[state]}: ${verdicts.join("; ")}`);
  }
  const verified = ordersMatch && stockMatches;
  if (!verified) console.error("verification FAILED: orders or stock do not match the place-order answers");

  const file = saveResults("purchase", {
    settings,
    buyers,
    cartCount,
    fsType,
    loadAverage: { before: loadBefore, after: loadAfter },
    parts: [...parts],
    addToCart: wrkSummaries["add-to-cart"],
    createCartWithItem: wrkSummaries["create-cart"],
    purchases: {
      ...purchaseSummary,
      runs: Object.fromEntries(
        STORE_STATES.map((state) => [
          state,
          purchaseRuns[state].map(({ stepMs: _, purchaseMs: __, ...run }) => run),
        ]),
      ),
    },
    verification: { ordersTotal, placedTotal, ordersMatch, stock, stockMatches },
    targets: {
      addRps: TARGET_ADD_RPS,
      addRatio: TARGET_ADD_RATIO,
      createRatio: TARGET_CREATE_RATIO,
      purchases: TARGET_PURCHASES,
      met,
    },
  });
  console.log(`results saved to ${file}`);
  if (!verified) process.exitCode = 1;
} finally {
  for (const child of children.reverse()) await child.stop();
  rmSync(tmp, { recursive: true, force: true });
}
