// What events out cost: webhook deliveries per second from the outbox to a local receiver against a
// bare signed-POST floor, and the cost that recording events (and queuing their deliveries and
// emails) adds to each order placed, against the code before events. Usage: bun bench/events-out.ts
// (see bench/README.md).
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import {
  type Child,
  call,
  cliJson,
  cpuSeconds,
  envInt,
  fmt,
  freePort,
  makeTempDir,
  median,
  must,
  PT_ADDRESS,
  percentile,
  printTable,
  ROOT,
  runCliCommand,
  saveResults,
  sleep,
  spawnServer,
} from "./lib.ts";

const PARTS = ["deliveries", "orders"] as const;
type Part = (typeof PARTS)[number];
const parts = new Set<Part>(
  (process.env.BENCH_PARTS?.trim() || PARTS.join(",")).split(",").map((p) => {
    if (!PARTS.includes(p.trim() as Part)) throw new Error(`BENCH_PARTS takes ${PARTS.join(", ")}`);
    return p.trim() as Part;
  }),
);
const events = envInt("BENCH_EVENTS", 2000);
const producers = envInt("BENCH_PRODUCERS", 8);
const alone = envInt("BENCH_ALONE", 100, 0);
const rounds = envInt("BENCH_ROUNDS", 3);
const duration = envInt("BENCH_DURATION", 5);
const warmup = envInt("BENCH_WARMUP", 2, 0);
const buyers = envInt("BENCH_BUYERS", 16);
const before = process.env.BENCH_BEFORE?.trim() || "/tmp/bench-before";

const HOST = "shop.bench.example";
const LOCALHOST_WEBHOOKS = { WEBHOOKS_ALLOW_HTTP_LOCALHOST: "true" };

// ---------------------------------------------------------------------------------------------
// CLI and receiver helpers (loopback only)

/** A `--json` command of the CLI of the tree at `root` (this tree or the one before events). */
async function cli<T>(root: string, dataDir: string, args: string[]): Promise<T> {
  if (root === ROOT) return cliJson<T>(dataDir, args);
  const result = await runCliCommand(dataDir, [...args, "--json"], {
    command: [process.execPath, join(root, "src/cli.ts")],
  });
  if (result.exitCode !== 0) throw new Error(`cli ${args.join(" ")}: ${result.stderr}${result.stdout}`);
  return JSON.parse(result.stdout) as T;
}

interface Shop {
  orgId: string;
  host: string;
  admin: Record<string, string>;
}

/** An organization with a storefront host and an admin key, made with the tree's CLI. */
async function createShop(root: string, service: Child, host: string): Promise<Shop> {
  const org = await cli<{ id: string }>(root, service.dataDir, [
    "org",
    "create",
    "--name",
    "Bench",
    "--host",
    host,
  ]);
  const key = await cli<{ key: string }>(root, service.dataDir, [
    "apikey",
    "create",
    "--org",
    org.id,
    "--scopes",
    "admin",
  ]);
  return { orgId: org.id, host, admin: { "x-api-key": key.key } };
}

/** An endpoint taking every event type; answers its signing secret. */
async function addEndpoint(service: Child, shop: Shop, receiver: Child): Promise<string> {
  const endpoint = await must<{ secret: string }>(
    service.url,
    "POST",
    "/v1/admin/webhook-endpoints",
    { url: `http://127.0.0.1:${receiver.port}/hook`, events: ["*"] },
    shop.admin,
  );
  return endpoint.secret;
}

interface ReceiverStats {
  arrivals: number[];
  lags: number[];
  bodyBytes: number[];
  first: { headers: Record<string, string>; body: string } | null;
  mails: number;
}

const stats = (receiver: Child) =>
  fetch(`${receiver.url}/stats`).then((r) => r.json() as Promise<ReceiverStats>);
const reset = (receiver: Child) => fetch(`${receiver.url}/reset`, { method: "POST" }).then((r) => r.text());

/** Waits until the receiver holds `count` deliveries; throws after `timeoutMs`. */
async function awaitDeliveries(receiver: Child, count: number, timeoutMs: number): Promise<ReceiverStats> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const now = await stats(receiver);
    if (now.arrivals.length >= count) return now;
    if (performance.now() > deadline) {
      throw new Error(`only ${now.arrivals.length} of ${count} deliveries arrived in ${timeoutMs} ms`);
    }
    await sleep(20);
  }
}

/** Runs `total` calls of `task(n)`, `concurrency` at a time. */
async function pool(total: number, concurrency: number, task: (n: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

// ---------------------------------------------------------------------------------------------
// Part 1: webhook deliveries per second

interface DeliveryRun {
  shops: number;
  events: number;
  produceMs: number;
  deliverMs: number;
  deliveriesPerSecond: number;
  deliveredWhileProducing: number;
  drainPerSecond: number;
  lagP50Ms: number;
  lagP99Ms: number;
  floorMs: number;
  floorPerSecond: number;
  ratio: number;
  serviceCpuMsPerEvent: number;
}

type BenchShop = Shop & { secret: string; productId: string };

/** A product update of one of the shops (records `product.updated`). */
const patchProduct = (service: Child, shop: BenchShop, name: string) =>
  must(service.url, "PATCH", `/v1/admin/products/${shop.productId}`, { name: { en: name } }, shop.admin);

/** `count` shops with an endpoint `*` and a product each; checks the first delivery's signature. */
async function setUpShops(service: Child, receiver: Child, count: number): Promise<BenchShop[]> {
  const shops: BenchShop[] = [];
  for (let s = 0; s < count; s++) {
    const shop = await createShop(ROOT, service, `shop${s}.bench.example`);
    const secret = await addEndpoint(service, shop, receiver);
    const product = await must<{ id: string }>(
      service.url,
      "POST",
      "/v1/admin/products",
      { name: { en: "Bench mug" }, variants: [{ sku: `MUG-${s}`, price: 1299 }] },
      shop.admin,
    );
    shops.push({ ...shop, secret, productId: product.id });
  }
  const first = (await awaitDeliveries(receiver, count, 10_000)).first!;
  // Signed as the Standard Webhooks libraries verify it, with one of the shops' secrets.
  const verifies = (secret: string) => {
    try {
      new Webhook(secret).verify(first.body, first.headers);
      return true;
    } catch {
      return false;
    }
  };
  if (!shops.some((shop) => verifies(shop.secret))) throw new Error("a delivery's signature does not verify");
  return shops;
}

/** The floor: `events` signed POSTs of `body`, one after another, from a bare Bun process; answers ms. */
async function runFloor(receiver: Child, dir: string, body: string, secret: string): Promise<number> {
  await reset(receiver);
  const bodyFile = join(dir, "body.json");
  writeFileSync(bodyFile, body);
  const floor = Bun.spawnSync([process.execPath, "bench/webhook-send-floor.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      FLOOR_URL: `${receiver.url}/hook`,
      FLOOR_COUNT: String(events),
      FLOOR_SECRET: secret,
      FLOOR_BODY: bodyFile,
    },
  });
  if (floor.exitCode !== 0) throw new Error(`floor sender failed: ${floor.stderr.toString()}`);
  const result = JSON.parse(floor.stdout.toString()) as { ms: number; failed: number };
  const arrived = (await stats(receiver)).arrivals.length;
  if (result.failed > 0 || arrived !== events) {
    throw new Error(`floor: ${result.failed} failed, ${arrived} of ${events} arrived`);
  }
  return result.ms;
}

/** One round: `events` PATCHes `producers` at a time, until the last delivery; then the floor. */
async function deliveryRound(
  service: Child,
  receiver: Child,
  shops: BenchShop[],
  round: number,
  dir: string,
) {
  await reset(receiver);
  const cpuBefore = cpuSeconds(service.proc.pid);
  const t0 = Date.now();
  await pool(events, producers, (n) =>
    patchProduct(service, shops[n % shops.length]!, `Bench mug ${round}-${n}`).then(() => {}),
  );
  const produced = Date.now();
  const got = await awaitDeliveries(receiver, events, 120_000);
  const cpu = cpuSeconds(service.proc.pid) - cpuBefore;
  const last = Math.max(...got.arrivals);
  const whileProducing = got.arrivals.filter((at) => at <= produced).length;
  const floorMs = await runFloor(receiver, dir, got.first!.body, shops[0]!.secret);
  const deliverMs = last - t0;
  const run: DeliveryRun = {
    shops: shops.length,
    events,
    produceMs: produced - t0,
    deliverMs,
    deliveriesPerSecond: (events * 1000) / deliverMs,
    deliveredWhileProducing: whileProducing,
    drainPerSecond: last > produced ? ((events - whileProducing) * 1000) / (last - produced) : Number.NaN,
    lagP50Ms: percentile(got.lags, 50),
    lagP99Ms: percentile(got.lags, 99),
    floorMs,
    floorPerSecond: (events * 1000) / floorMs,
    ratio: 0,
    serviceCpuMsPerEvent: (cpu * 1000) / events,
  };
  run.ratio = run.deliveriesPerSecond / run.floorPerSecond;
  console.log(
    `round ${round}/${rounds}, ${shops.length} shop(s): ${events} events produced in ${run.produceMs} ms ` +
      `(${whileProducing} delivered meanwhile), last delivery after ${deliverMs} ms: ` +
      `${fmt(run.deliveriesPerSecond, 0)}/s (drain ${fmt(run.drainPerSecond, 0)}/s), lag p50 ${run.lagP50Ms} ms ` +
      `p99 ${run.lagP99Ms} ms, service CPU ${fmt(run.serviceCpuMsPerEvent)} ms/event; floor ` +
      `${fmt(run.floorPerSecond, 0)}/s; ratio ${fmt(run.ratio)}`,
  );
  return run;
}

/** `shops` shops on one service, `rounds` rounds, then `alone` events one at a time. */
async function measureDeliveries(
  shopCount: number,
  receiver: Child,
): Promise<{ runs: DeliveryRun[]; aloneLags: number[] }> {
  const service = await spawnServer({ label: "service", env: LOCALHOST_WEBHOOKS });
  const tmp = makeTempDir("events-floor");
  await reset(receiver);
  try {
    const shops = await setUpShops(service, receiver, shopCount);
    const runs: DeliveryRun[] = [];
    for (let round = 1; round <= rounds; round++)
      runs.push(await deliveryRound(service, receiver, shops, round, tmp));
    // One event at a time, each waited for: commit → delivery with no queue ahead of it.
    await reset(receiver);
    for (let n = 0; n < alone; n++) {
      await patchProduct(service, shops[n % shopCount]!, `Bench mug alone ${n}`);
      await awaitDeliveries(receiver, n + 1, 10_000);
    }
    const aloneLags = alone > 0 ? (await stats(receiver)).lags : [];
    return { runs, aloneLags };
  } finally {
    await service.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Part 2: what events add to each order placed

interface Variant {
  name: string;
  root: string;
  endpoint: boolean;
  smtp: boolean;
}

interface OrderRun {
  variant: string;
  round: number;
  purchasesPerSecond: number;
  placeOrderMs: number[];
  serviceCpuMsPerPurchase: number;
  /** Deliveries and emails that reached the receiver within the window, per purchase counted. */
  deliveriesPerPurchase: number;
  mailsPerPurchase: number;
  /** After the window: all deliveries and emails per order placed, and when the last one arrived. */
  deliveriesPerOrder: number;
  mailsPerOrder: number;
  catchUpMs: number;
  /** Service CPU from the window's start until the last delivery or email arrived, per order placed. */
  serviceCpuMsPerOrderAll: number;
  failures: string[];
}

/** Waits until nothing more arrives for `quietMs` (at most a minute); answers the last figures. */
async function awaitQuiet(receiver: Child, quietMs: number): Promise<ReceiverStats> {
  let last = await stats(receiver);
  let still = performance.now();
  const deadline = still + 60_000;
  while (performance.now() - still < quietMs && performance.now() < deadline) {
    await sleep(50);
    const now = await stats(receiver);
    if (now.arrivals.length !== last.arrivals.length || now.mails !== last.mails) still = performance.now();
    last = now;
  }
  return last;
}

/** The shop of purchase.ts: locales en+pt, a PT shipping method, two tracked products. */
async function setUpStore(service: Child, shop: Shop): Promise<[string, string, string]> {
  const admin = shop.admin;
  await must(
    service.url,
    "PATCH",
    "/v1/admin/store",
    { locales: ["en", "pt"], contactEmail: "shop@bench.example" },
    admin,
  );
  const shipping = await must<{ id: string }>(
    service.url,
    "POST",
    "/v1/admin/shipping-methods",
    { name: { en: "Portugal", pt: "Portugal" }, price: 490, freeOver: 5000, countries: ["PT"] },
    admin,
  );
  const variant = async (sku: string, price: number) => {
    const body = {
      name: { en: sku, pt: sku },
      variants: [{ sku, price, inventory: { tracked: true, onHand: 1e9 } }],
    };
    const product = await must<{ variants: { id: string }[] }>(
      service.url,
      "POST",
      "/v1/admin/products",
      body,
      admin,
    );
    return product.variants[0]!.id;
  };
  return [await variant("BENCH-MUG", 1299), await variant("BENCH-TEE", 1999), shipping.id];
}

/** Buyers loop for `seconds`: cart with email → 2 items → address → method → place-order. */
async function purchases(service: Child, shop: [string, string, string], seconds: number, label: string) {
  const headers = { host: HOST };
  const placeOrderMs: number[] = [];
  const failures: string[] = [];
  let completed = 0;
  let placedTotal = 0;
  const deadline = performance.now() + seconds * 1000;
  const post = async <T>(path: string, body: unknown, expect: number) => {
    const answer = await call(service.url, "POST", path, body, headers);
    if (answer.status !== expect) throw new Error(`${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
    return { data: (JSON.parse(answer.text) as { data: T }).data, ms: answer.ms };
  };
  const buyer = async (b: number) => {
    for (let n = 0; performance.now() < deadline; n++) {
      try {
        const cart = await post<{ id: string }>(
          "/v1/carts",
          { email: `${label}-${b}-${n}@bench.example` },
          201,
        );
        const at = `/v1/carts/${cart.data.id}`;
        await post(`${at}/items`, { variantId: shop[0], quantity: 1 }, 200);
        await post(`${at}/items`, { variantId: shop[1], quantity: 1 }, 200);
        await post(`${at}/shipping-address`, PT_ADDRESS, 200);
        await post(`${at}/shipping-method`, { shippingMethodId: shop[2] }, 200);
        const placed = await post(`${at}/place-order`, {}, 201);
        placedTotal++;
        if (performance.now() <= deadline) {
          completed++;
          placeOrderMs.push(placed.ms);
        }
      } catch (error) {
        if (failures.length < 5) failures.push(String(error));
      }
    }
  };
  await Promise.all(Array.from({ length: buyers }, (_, b) => buyer(b)));
  return { completed, placed: placedTotal, placeOrderMs, failures };
}

async function measureOrders(
  variant: Variant,
  receiver: Child,
  smtpPort: number,
  round: number,
): Promise<OrderRun> {
  const env: Record<string, string> = { ...LOCALHOST_WEBHOOKS };
  if (variant.smtp) {
    env.SMTP_URL = `smtp://127.0.0.1:${smtpPort}`;
    env.MAIL_FROM = "Bench <shop@bench.example>";
  }
  const service = await spawnServer({
    label: "service",
    command: [process.execPath, join(variant.root, "src/server.ts")],
    env,
  });
  try {
    const shop = await createShop(variant.root, service, HOST);
    const store = await setUpStore(service, shop);
    if (variant.endpoint) await addEndpoint(service, shop, receiver);
    if (warmup > 0) await purchases(service, store, warmup, `w${round}`);
    // The warm-up's deliveries and emails arrive first, so the window starts with no backlog.
    await awaitQuiet(receiver, 1000);
    await reset(receiver);
    const cpuBefore = cpuSeconds(service.proc.pid);
    const run = await purchases(service, store, duration, `r${round}`);
    const cpu = cpuSeconds(service.proc.pid) - cpuBefore;
    const windowEnd = Date.now();
    const got = await stats(receiver);
    const all = await awaitQuiet(receiver, 1000);
    const cpuAll = cpuSeconds(service.proc.pid) - cpuBefore;
    const lastArrival = all.arrivals.length ? Math.max(...all.arrivals) : windowEnd;
    return {
      variant: variant.name,
      round,
      purchasesPerSecond: run.completed / duration,
      placeOrderMs: run.placeOrderMs,
      serviceCpuMsPerPurchase: (cpu * 1000) / run.completed,
      deliveriesPerPurchase: got.arrivals.length / run.completed,
      mailsPerPurchase: got.mails / run.completed,
      deliveriesPerOrder: all.arrivals.length / run.placed,
      mailsPerOrder: all.mails / run.placed,
      catchUpMs: Math.max(0, lastArrival - windowEnd),
      serviceCpuMsPerOrderAll: (cpuAll * 1000) / run.placed,
      failures: run.failures,
    };
  } finally {
    await service.stop();
  }
}

// ---------------------------------------------------------------------------------------------

/** Part 1 on 1 and 2 shops: prints the medians, answers every run. */
async function deliveriesPart(receiver: Child) {
  console.log(`\nwebhook deliveries: ${events} product.updated events by ${producers} concurrent PATCHes`);
  const measured = [await measureDeliveries(1, receiver), await measureDeliveries(2, receiver)];
  const byShops = measured.map((m) => m.runs);
  const m = (runs: DeliveryRun[], key: keyof DeliveryRun) => median(runs.map((r) => r[key] as number));
  console.log(`\nwebhook deliveries (${events} events, medians of ${rounds} rounds)`);
  printTable(
    [
      "shops",
      "deliveries/s",
      "drain/s",
      "lag p50 ms",
      "lag p99 ms",
      "CPU ms/event",
      "floor/s",
      "drain/floor",
      "ratio (rounds)",
    ],
    byShops.map((runs) => [
      String(runs[0]!.shops),
      fmt(m(runs, "deliveriesPerSecond"), 0),
      fmt(m(runs, "drainPerSecond"), 0),
      fmt(m(runs, "lagP50Ms"), 0),
      fmt(m(runs, "lagP99Ms"), 0),
      fmt(m(runs, "serviceCpuMsPerEvent")),
      fmt(m(runs, "floorPerSecond"), 0),
      fmt(median(runs.map((r) => r.drainPerSecond / r.floorPerSecond))),
      `${fmt(m(runs, "ratio"))} (${runs.map((r) => fmt(r.ratio)).join(", ")})`,
    ]),
  );
  for (const [i, { aloneLags }] of measured.entries()) {
    console.log(
      `one at a time (${i + 1} shop(s)): commit → delivery p50 ${fmt(percentile(aloneLags, 50), 0)} ms, ` +
        `p99 ${fmt(percentile(aloneLags, 99), 0)} ms`,
    );
  }
  return measured;
}

/** The variants of part 2: this tree three ways, and the tree before events when it is there. */
function orderVariants(): Variant[] {
  const variants: Variant[] = [
    { name: "now, no endpoint, no SMTP", root: ROOT, endpoint: false, smtp: false },
    { name: "now, endpoint *", root: ROOT, endpoint: true, smtp: false },
    { name: "now, endpoint * + SMTP", root: ROOT, endpoint: true, smtp: true },
  ];
  if (existsSync(join(before, "src/server.ts"))) {
    variants.unshift({ name: "before events", root: before, endpoint: false, smtp: false });
  } else {
    console.warn(`warning: no tree before events at ${before} (BENCH_BEFORE); measuring this tree only`);
  }
  return variants;
}

/** Part 2's rounds, variants rotated; a variant that cannot run is reported and skipped after. */
async function orderRounds(variants: Variant[], receiver: Child, smtpPort: number) {
  console.log(
    `\norders: ${buyers} buyers, ${duration} s per run, warm-up ${warmup} s, a fresh service per run`,
  );
  const runs: OrderRun[] = [];
  const broken = new Map<string, string>();
  for (let round = 1; round <= rounds; round++) {
    // Rotated each round, so no variant always runs first or right after another.
    const order = variants.map((_, i) => variants[(i + round - 1) % variants.length]!);
    for (const variant of order) {
      if (broken.has(variant.name)) continue;
      let run: OrderRun;
      try {
        run = await measureOrders(variant, receiver, smtpPort, round);
      } catch (error) {
        // A variant that cannot run (the service does not start or set up) is reported and skipped.
        broken.set(variant.name, String(error).slice(0, 2000));
        console.error(`round ${round}/${rounds} ${variant.name}: FAILED, skipped from now on\n${error}`);
        continue;
      }
      runs.push(run);
      console.log(
        `round ${round}/${rounds} ${variant.name.padEnd(26)} ${fmt(run.purchasesPerSecond, 0).padStart(5)} purchases/s ` +
          `place-order p50 ${fmt(percentile(run.placeOrderMs, 50))} ms p99 ${fmt(percentile(run.placeOrderMs, 99))} ms ` +
          `CPU ${fmt(run.serviceCpuMsPerPurchase)} ms/purchase (${fmt(run.serviceCpuMsPerOrderAll)} with the work after), ${fmt(run.deliveriesPerPurchase)} deliveries and ` +
          `${fmt(run.mailsPerPurchase)} emails per purchase arrived in the window; after it ` +
          `${fmt(run.deliveriesPerOrder)} deliveries, ${fmt(run.mailsPerOrder)} emails per order, the last ` +
          `${fmt(run.catchUpMs / 1000, 1)} s after the window${run.failures.length ? `; FAILURES ${run.failures.join(" | ")}` : ""}`,
      );
    }
  }
  return { runs, broken };
}

/** Medians per variant and the per-round ratios to the first variant; prints them. */
function summarizeOrders(variants: Variant[], runs: OrderRun[]) {
  const base = variants[0]!.name;
  const measured = variants.filter((variant) => runs.some((r) => r.variant === variant.name));
  const rows = measured.map((variant) => {
    const own = runs.filter((r) => r.variant === variant.name);
    const ratios = own.map((r) => {
      const reference = runs.find((x) => x.variant === base && x.round === r.round);
      return reference ? r.purchasesPerSecond / reference.purchasesPerSecond : Number.NaN;
    });
    const allPlace = own.flatMap((r) => r.placeOrderMs);
    return {
      variant: variant.name,
      purchasesPerSecond: median(own.map((r) => r.purchasesPerSecond)),
      placeOrderP50Ms: percentile(allPlace, 50),
      placeOrderP99Ms: percentile(allPlace, 99),
      serviceCpuMsPerPurchase: median(own.map((r) => r.serviceCpuMsPerPurchase)),
      deliveriesPerPurchase: median(own.map((r) => r.deliveriesPerPurchase)),
      mailsPerPurchase: median(own.map((r) => r.mailsPerPurchase)),
      catchUpMs: median(own.map((r) => r.catchUpMs)),
      serviceCpuMsPerOrderAll: median(own.map((r) => r.serviceCpuMsPerOrderAll)),
      ratios,
    };
  });
  console.log(
    `\norders placed (${buyers} buyers, medians of ${rounds} rounds; ratios to "${base}" of the same round)`,
  );
  printTable(
    [
      "variant",
      "purchases/s",
      "place-order p50 ms",
      "p99 ms",
      "CPU ms/purchase",
      "CPU ms/order, all",
      "deliveries/p",
      "emails/p",
      "catch-up s",
      "ratio (rounds)",
    ],
    rows.map((r) => [
      r.variant,
      fmt(r.purchasesPerSecond, 0),
      fmt(r.placeOrderP50Ms),
      fmt(r.placeOrderP99Ms),
      fmt(r.serviceCpuMsPerPurchase),
      fmt(r.serviceCpuMsPerOrderAll),
      fmt(r.deliveriesPerPurchase),
      fmt(r.mailsPerPurchase),
      fmt(r.catchUpMs / 1000, 1),
      `${fmt(median(r.ratios))} (${r.ratios.map((x) => fmt(x)).join(", ")})`,
    ]),
  );
  return rows;
}

const load = loadavg();
console.log(
  `events-out benchmark (${[...parts].join(", ")}): ${cpus().length} cores, load average ` +
    `${load.map((l) => fmt(l)).join(" ")}; ${rounds} rounds`,
);
const smtpPort = await freePort();
const receiver = await spawnServer({
  label: "receiver",
  command: [process.execPath, "bench/events-receiver.ts"],
  env: { SMTP_PORT: String(smtpPort) },
});
const results: Record<string, unknown> = { cores: cpus().length, loadBefore: load, rounds };
let failed = false;
try {
  if (parts.has("deliveries")) results.deliveries = await deliveriesPart(receiver);
  if (parts.has("orders")) {
    const variants = orderVariants();
    const { runs, broken } = await orderRounds(variants, receiver, smtpPort);
    failed = broken.size > 0 || runs.some((run) => run.failures.length > 0);
    const rows = summarizeOrders(variants, runs);
    for (const [name, error] of broken) console.error(`not measured: ${name}: ${error.split("\n")[0]}`);
    results.orders = {
      rows,
      broken: Object.fromEntries(broken),
      runs: runs.map(({ placeOrderMs, ...rest }) => ({ ...rest, placeOrders: placeOrderMs.length })),
    };
  }
} finally {
  await receiver.stop();
}
results.loadAfter = loadavg();
console.log(
  `\nload average at the end ${loadavg()
    .map((l) => fmt(l))
    .join(" ")}`,
);
console.log(`results: ${saveResults("events-out", results)}`);
if (failed) process.exit(1);
