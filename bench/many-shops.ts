// Many shops in one process: 10 000 organizations, each its own tenant file. Measures the start-up
// to the first healthy answer, idle RSS, the first request to a shop nobody touched yet (cold: the
// pool opens its file), RSS and open file descriptors after every shop was touched once by Host,
// the first request after a restart to shops served before, RSS under catalog and cart loads on one
// shop, and in this process what a cold open costs.
// Usage: bun bench/many-shops.ts  (BENCH_SHOPS, default 10000; BENCH_STARTS, default 3; BENCH_COLD,
// default 200; BENCH_DURATION, default 5; BENCH_DATA_DIR keeps the seeded data for later runs;
// BENCH_BINARY=1 measures dist/commerce, BENCH_BINARY=<path> that executable; BENCH_POOL sets
// TENANT_POOL_SIZE of the service)
import { Database } from "bun:sqlite";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createApp } from "../src/app.ts";
import { createOrganization } from "../src/auth/service.ts";
import { organizations } from "../src/auth/tables.ts";
import { seedProducts } from "../src/catalog/seed.ts";
import { loadConfig } from "../src/config.ts";
import { openSqlite } from "../src/db/sqlite.ts";
import { TenantPool } from "../src/db/tenant-pool.ts";
import { newId } from "../src/lib/ids.ts";
import {
  type Child,
  ensureWrk,
  envInt,
  fdCount,
  fmt,
  getMs,
  inProcessEnv,
  luaString,
  makeTempDir,
  median,
  percentile,
  printTable,
  ROOT,
  rssMb,
  runWrk,
  saveResults,
  sleep,
  spawnServer,
} from "./lib.ts";

const SHOPS = envInt("BENCH_SHOPS", 10_000, 2);
const STARTS = envInt("BENCH_STARTS", 3);
const COLD = Math.min(envInt("BENCH_COLD", 200), SHOPS - 1);
const DURATION = envInt("BENCH_DURATION", 5);
const CONNECTIONS = envInt("BENCH_CONNECTIONS", 50);
const POOL = process.env.BENCH_POOL?.trim();
/** Requests in flight while every shop is touched (each its own keep-alive connection, one fd each). */
const TOUCHERS = 8;
const DOMAIN = "shops.bench.test";
const TARGETS = { idleMb: 70, loadMb: 100, touchedMb: 160, startupMs: 1000, coldP50Ms: 2 };
const slugOf = (i: number) => `shop-${String(i).padStart(5, "0")}`;
const hostOf = (i: number) => `${slugOf(i)}.${DOMAIN}`;

// ------------------------------------------------------------------------------------------ setup

/**
 * Shop 0 is made by `createOrganization` (its file as the service makes one) and gets 200 products
 * for the loads; the others are copies of its file taken before, each told its own organization id,
 * with their control-plane rows written in one transaction: minutes faster than migrating 10 000
 * files, and the same bytes.
 */
function seed(dataDir: string, shops: number): void {
  const app = createApp(loadConfig(inProcessEnv(dataDir, { PLATFORM_DOMAIN: DOMAIN })));
  const started = performance.now();
  const template = createOrganization(app.ctx, { name: "Shop 0", slug: slugOf(0) });
  const templateFile = join(dataDir, "tenants", `${template.id}.sqlite`);
  checkpoint(templateFile);
  const copy = join(dataDir, "template.sqlite");
  copyFileSync(templateFile, copy);
  const now = Date.now();
  const rows: (typeof organizations.$inferInsert)[] = [];
  for (let i = 1; i < shops; i++) {
    const id = newId("org");
    const file = join(dataDir, "tenants", `${id}.sqlite`);
    copyFileSync(copy, file);
    const sqlite = new Database(file);
    sqlite.run("UPDATE tenant_meta SET value = ? WHERE key = 'organization_id'", [id]);
    sqlite.close();
    rows.push({ id, slug: slugOf(i), name: `Shop ${i}`, createdAt: now, updatedAt: now });
    if (i % 1000 === 0) console.log(`  ${i} shops …`);
  }
  rmSync(copy);
  app.ctx.platform.sqlite.transaction(() => {
    for (let i = 0; i < rows.length; i += 500)
      app.ctx.platform.db
        .insert(organizations)
        .values(rows.slice(i, i + 500))
        .run();
  })();
  const tenant = app.ctx.tenants.acquire(template.id);
  seedProducts(tenant, 200);
  app.ctx.tenants.release(tenant);
  app.close();
  console.log(`seeded ${shops} shops in ${fmt((performance.now() - started) / 1000, 1)} s`);
}

function checkpoint(file: string): void {
  const sqlite = new Database(file);
  sqlite.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite.close();
}

function orgIds(dataDir: string): string[] {
  return readdirSync(join(dataDir, "tenants"))
    .filter((f) => f.endsWith(".sqlite"))
    .map((f) => f.slice(0, -".sqlite".length));
}

// ------------------------------------------------------------------------------- process figures

/** Highest RSS seen while `work` runs, read every 100 ms. */
async function peakDuring(pid: number, work: Promise<unknown>): Promise<number> {
  let peak = rssMb(pid).rss;
  let done = false;
  work.finally(() => {
    done = true;
  });
  while (!done) {
    await sleep(100);
    peak = Math.max(peak, rssMb(pid).rss);
  }
  await work;
  return peak;
}

const command = (() => {
  const binary = process.env.BENCH_BINARY;
  if (!binary) return { name: "bun src/server.ts", argv: [process.execPath, "src/server.ts"] };
  const path = binary === "1" ? join(ROOT, "dist", "commerce") : binary;
  return { name: binary === "1" ? "dist/commerce" : path, argv: [path] };
})();

function start(dataDir: string): Promise<Child> {
  const env: Record<string, string> = { DATA_DIR: dataDir, PLATFORM_DOMAIN: DOMAIN, MIN_FREE_DISK_MB: "0" };
  if (POOL) env.TENANT_POOL_SIZE = POOL;
  return spawnServer({ command: command.argv, label: "many-shops", logLevel: "warn", env, pollMs: 1 });
}

/** A spawned child on the kept data: `stop` of spawnServer removes only its own temp dir. */
async function withService<T>(dataDir: string, fn: (child: Child) => Promise<T>): Promise<T> {
  const child = await start(dataDir);
  try {
    return await fn(child);
  } finally {
    await child.stop();
  }
}

// -------------------------------------------------------------------------------------- scenarios

interface StartSample {
  startupMs: number;
  idleMb: number;
  fds: number;
}

async function startSample(dataDir: string): Promise<StartSample> {
  return withService(dataDir, async (child) => {
    await sleep(1000);
    return { startupMs: child.startupMs, idleMb: rssMb(child.proc.pid).rss, fds: fdCount(child.proc.pid) };
  });
}

/** First request to each of COLD untouched shops (cold), each followed by a second (warm, the floor); then every other shop once. */
async function coldAndTouchAll(dataDir: string) {
  return withService(dataDir, async (child) => {
    const base = child.url;
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 1; i <= COLD; i++) {
      cold.push(await getMs(base, hostOf(i)));
      warm.push(await getMs(base, hostOf(i)));
    }
    const started = performance.now();
    let next = COLD + 1;
    const worker = async () => {
      while (next < SHOPS) await getMs(base, hostOf(next++));
    };
    await peakDuring(child.proc.pid, Promise.all(Array.from({ length: TOUCHERS }, worker)));
    const touchSeconds = (performance.now() - started) / 1000;
    await sleep(1000);
    const { rss, hwm } = rssMb(child.proc.pid);
    return {
      coldP50Ms: median(cold),
      coldP90Ms: percentile(cold, 90),
      warmP50Ms: median(warm),
      touchSeconds,
      touchedMb: rss,
      peakMb: hwm,
      fds: fdCount(child.proc.pid),
    };
  });
}

/**
 * On a fresh start after `coldAndTouchAll`: the first request to each of the same COLD shops again,
 * shops a process served before (its files as serving left them), as after any restart.
 */
async function servedBefore(dataDir: string) {
  return withService(dataDir, async (child) => {
    const cold: number[] = [];
    for (let i = 1; i <= COLD; i++) cold.push(await getMs(child.url, hostOf(i)));
    return { coldP50Ms: median(cold), coldP90Ms: percentile(cold, 90) };
  });
}

function writeScript(dir: string, name: string, method: string, path: string, body?: unknown): string {
  const file = join(dir, `${name}.lua`);
  const headers = `{ ["Host"] = ${luaString(hostOf(0))}, ["Content-Type"] = "application/json" }`;
  const payload = body === undefined ? "nil" : luaString(JSON.stringify(body));
  writeFileSync(
    file,
    `request = function() return wrk.format(${luaString(method)}, ${luaString(path)}, ${headers}, ${payload}) end\n`,
  );
  return file;
}

/** wrk on shop 0: its catalog page, then creating carts with one item; RSS peak during each. */
async function oneShopLoads(dataDir: string, variantId: string) {
  const dir = makeTempDir("many-shops-lua");
  try {
    return await withService(dataDir, async (child) => {
      const idle = rssMb(child.proc.pid).rss;
      const run = (script: string) =>
        runWrk(`${child.url}/`, { duration: DURATION, connections: CONNECTIONS, threads: 2, script });
      const catalog = writeScript(dir, "catalog", "GET", "/v1/products?limit=20");
      const cart = writeScript(dir, "cart", "POST", "/v1/carts", { items: [{ variantId, quantity: 1 }] });
      const loads: Record<string, { rps: number; non2xx: number; peakMb: number }> = {};
      for (const [name, script] of [
        ["catalog", catalog],
        ["cart", cart],
      ] as const) {
        const run1 = run(script);
        const peakMb = await peakDuring(child.proc.pid, run1);
        const result = await run1;
        loads[name] = { rps: result.rps, non2xx: result.non2xx, peakMb };
      }
      return { idle, loads, afterMb: rssMb(child.proc.pid).rss };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** In this process: a fresh pool opening cold files, and the bare open + pragmas alone. */
function coldOpenCost(dataDir: string, ids: string[]) {
  const pool = new TenantPool(dataDir, 16);
  const acquire: number[] = [];
  const bare: number[] = [];
  for (const id of ids.slice(0, 500)) {
    let started = performance.now();
    pool.release(pool.acquire(id));
    acquire.push(performance.now() - started);
    started = performance.now();
    openSqlite(join(dataDir, "tenants", `${id}.sqlite`), { create: false, synchronous: "NORMAL" }).close();
    bare.push(performance.now() - started);
  }
  pool.close();
  return { acquireP50Ms: median(acquire), openPragmasP50Ms: median(bare) };
}

/** An active variant in stock of shop 0, for the cart load. */
function cartVariant(dataDir: string): string {
  const app = createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO_TENANT: "false" }));
  try {
    const org = app.ctx.platform.sqlite
      .query("SELECT id FROM organizations WHERE slug = ?")
      .get(slugOf(0)) as { id: string };
    const tenant = app.ctx.tenants.acquire(org.id);
    const row = tenant.sqlite
      .query(
        `SELECT v.id FROM variants v JOIN products p ON p.id = v.product_id
          WHERE p.status = 'active' AND v.on_hand > 0 LIMIT 1`,
      )
      .get() as { id: string };
    app.ctx.tenants.release(tenant);
    return row.id;
  } finally {
    app.close();
  }
}

// ------------------------------------------------------------------------------------------- main

const kept = process.env.BENCH_DATA_DIR?.trim();
const dataDir = kept || makeTempDir("many-shops");
const floorDir = makeTempDir("many-shops-floor");
const pool = POOL ? Number(POOL) : loadConfig({}).tenantPoolSize;
ensureWrk();
try {
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(join(dataDir, "platform.sqlite"))) seed(dataDir, SHOPS);
  seed(floorDir, 1);
  const ids = orgIds(dataDir);
  if (ids.length !== SHOPS) throw new Error(`${dataDir} holds ${ids.length} shops, not BENCH_SHOPS=${SHOPS}`);
  const variantId = cartVariant(dataDir);

  console.log(`\n${command.name}, ${SHOPS} shops, TENANT_POOL_SIZE ${pool}; ${STARTS} starts each`);
  const floorStarts: StartSample[] = [];
  const starts: StartSample[] = [];
  for (let i = 0; i < STARTS; i++) {
    floorStarts.push(await startSample(floorDir));
    starts.push(await startSample(dataDir));
    console.log(
      `start ${i + 1}/${STARTS}: 1 shop ${JSON.stringify(floorStarts.at(-1))}, ${SHOPS} shops ${JSON.stringify(starts.at(-1))}`,
    );
  }
  const touched = await coldAndTouchAll(dataDir);
  console.log(`touched: ${JSON.stringify(touched)}`);
  const again = await servedBefore(dataDir);
  console.log(`served before, after a restart: ${JSON.stringify(again)}`);
  const loads = await oneShopLoads(dataDir, variantId);
  console.log(`one-shop loads: ${JSON.stringify(loads)}`);
  const open = coldOpenCost(dataDir, ids);
  console.log(`cold open in process: ${JSON.stringify(open)}`);

  const m = (samples: StartSample[], key: keyof StartSample) => median(samples.map((s) => s[key]));
  const idleFds = m(starts, "fds");
  const rows: [string, number, number | undefined, string][] = [
    [
      `start-up to first health, ${SHOPS} shops (floor: 1 shop) ms`,
      m(starts, "startupMs"),
      m(floorStarts, "startupMs"),
      `< ${TARGETS.startupMs}`,
    ],
    [
      `idle RSS, ${SHOPS} shops (floor: 1 shop) MB`,
      m(starts, "idleMb"),
      m(floorStarts, "idleMb"),
      `< ${TARGETS.idleMb} (binary)`,
    ],
    [
      `first request to a cold shop p50 (floor: warm) ms`,
      touched.coldP50Ms,
      touched.warmP50Ms,
      `< ${TARGETS.coldP50Ms}`,
    ],
    [`first request to a cold shop p90 (floor: warm p50) ms`, touched.coldP90Ms, touched.warmP50Ms, ""],
    [
      `first request after a restart to a shop served before, p50 (floor: warm) ms`,
      again.coldP50Ms,
      touched.warmP50Ms,
      `< ${TARGETS.coldP50Ms}`,
    ],
    [`the same, p90 (floor: warm p50) ms`, again.coldP90Ms, touched.warmP50Ms, ""],
    [
      `RSS after touching each shop once (floor: idle) MB`,
      touched.touchedMb,
      m(starts, "idleMb"),
      `< ${TARGETS.touchedMb}`,
    ],
    [`peak RSS (VmHWM) while touching (floor: idle) MB`, touched.peakMb, m(starts, "idleMb"), ""],
    [
      `open fds after touching (floor: idle)`,
      touched.fds,
      idleFds,
      `≤ ${idleFds + 3 * pool + TOUCHERS} (idle + 3 × pool + sockets)`,
    ],
    [`touching ${SHOPS - COLD - 1} shops, ${TOUCHERS} at a time, s`, touched.touchSeconds, undefined, ""],
    [
      `peak RSS, catalog load on one shop (floor: idle) MB`,
      loads.loads.catalog!.peakMb,
      loads.idle,
      `< ${TARGETS.loadMb}`,
    ],
    [
      `peak RSS, cart load on one shop (floor: idle) MB`,
      loads.loads.cart!.peakMb,
      loads.idle,
      `< ${TARGETS.loadMb}`,
    ],
    // The peaks grow with the rate the load ran at (bench/README.md, many-shops): read them with it.
    [`catalog load on one shop, req/s`, loads.loads.catalog!.rps, undefined, ""],
    [`cart load on one shop, req/s`, loads.loads.cart!.rps, undefined, ""],
    [`cold acquire in process, p50 ms (floor: open + pragmas)`, open.acquireP50Ms, open.openPragmasP50Ms, ""],
  ];
  console.log(
    `\n${command.name}, ${SHOPS} shops, TENANT_POOL_SIZE ${pool}; ${navigator.hardwareConcurrency} cores`,
  );
  printTable(
    ["figure", "value", "floor", "÷ floor", "target"],
    rows.map(([name, value, floor, target]) => [
      name,
      fmt(value, 2),
      floor === undefined ? "" : fmt(floor, 2),
      floor === undefined ? "" : fmt(value / floor, 2),
      target,
    ]),
  );
  const saved = {
    command: command.name,
    shops: SHOPS,
    pool,
    targets: TARGETS,
    floorStarts,
    starts,
    touched,
    again,
    loads,
    open,
    rows,
  };
  console.log(`results saved to ${saveResults("many-shops", saved)}`);
} finally {
  rmSync(floorDir, { recursive: true, force: true });
  if (!kept) rmSync(dataDir, { recursive: true, force: true });
}
