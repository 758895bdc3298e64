// One node with many shops, Litestream included: creating SHOPS shops the way the service does
// (`createOrganization`, in this process, one after another), the first request to a shop whose
// file is not open against a second one to it, RSS and open fds of the server after every shop was
// touched once (TENANT_POOL_SIZE at its default), then the same data served with REPLICA_URL set
// (a local S3 server, test/nodes/s3.ts): how long until Litestream streams every sampled shop, the
// lag from a write's acknowledgement to its WAL segment in the bucket, and Litestream's RSS and fds.
// Usage: flock /tmp/bench.lock bun bench/node-scale.ts  (SHOPS, default 10000; BENCH_COLD, default
// 200; BENCH_SAMPLE shops watched in the bucket, default 100; BENCH_WRITES, default 20;
// BENCH_STREAM_S gives Litestream that long to stream the sample, default 120; BENCH_LITESTREAM_MB
// stops the run when Litestream's RSS passes it, default 8000)
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { createApp } from "../src/app.ts";
import { createOrganization } from "../src/auth/service.ts";
import { loadConfig } from "../src/config.ts";
import { startS3 } from "../test/nodes/s3.ts";
import {
  type Child,
  childPids,
  cpuSeconds,
  envInt,
  fdCount,
  fmt,
  getMs,
  inProcessEnv,
  makeTempDir,
  median,
  percentile,
  printTable,
  rssMb,
  saveResults,
  sleep,
  spawnServer,
} from "./lib.ts";

const SHOPS = envInt("SHOPS", 10_000, 2);
const COLD = Math.min(envInt("BENCH_COLD", 200), SHOPS);
const SAMPLE = Math.min(envInt("BENCH_SAMPLE", 100), SHOPS);
const WRITES = Math.min(envInt("BENCH_WRITES", 20), SAMPLE);
const STREAM_S = envInt("BENCH_STREAM_S", 120);
const LITESTREAM_CAP_MB = envInt("BENCH_LITESTREAM_MB", 8000);
const SYNC_MS = 1000;
/** Requests in flight while every shop is touched. */
const TOUCHERS = 8;
const DOMAIN = "shops.bench.test";
const slugOf = (i: number) => `shop-${String(i).padStart(5, "0")}`;
const hostOf = (i: number) => `${slugOf(i)}.${DOMAIN}`;
/** `n` indexes spread evenly over every shop, so that old and new shops are both measured. */
const spread = (n: number) => Array.from({ length: n }, (_, k) => Math.floor((k * SHOPS) / n));

// ------------------------------------------------------------------------------------ creation

/** Every shop by `createOrganization`, as `org create` and sign-up make one; ms of each. */
function createShops(dataDir: string): { ids: string[]; ms: number[] } {
  const app = createApp(loadConfig(inProcessEnv(dataDir, { PLATFORM_DOMAIN: DOMAIN })));
  const ids: string[] = [];
  const ms: number[] = [];
  try {
    for (let i = 0; i < SHOPS; i++) {
      const started = performance.now();
      ids.push(createOrganization(app.ctx, { name: `Shop ${i}`, slug: slugOf(i) }).id);
      ms.push(performance.now() - started);
      if ((i + 1) % 1000 === 0)
        console.log(`  ${i + 1} shops, last 1000 p50 ${fmt(median(ms.slice(-1000)))} ms`);
    }
  } finally {
    app.close();
  }
  return { ids, ms };
}

function start(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  return spawnServer({
    label: "node-scale",
    logLevel: "warn",
    env: { DATA_DIR: dataDir, PLATFORM_DOMAIN: DOMAIN, MIN_FREE_DISK_MB: "0", ...env },
    pollMs: 1,
    timeoutMs: 60_000,
  });
}

// ------------------------------------------------------------------------- cold opens and touches

/** COLD shops' first request (cold) and second (warm), then every other shop once; RSS and fds. */
async function coldAndTouchAll(dataDir: string) {
  const child = await start(dataDir);
  try {
    const pid = child.proc.pid;
    const idle = { mb: rssMb(pid).rss, fds: fdCount(pid) };
    const cold: number[] = [];
    const warm: number[] = [];
    const measured = new Set(spread(COLD));
    for (const i of measured) {
      cold.push(await getMs(child.url, hostOf(i)));
      warm.push(await getMs(child.url, hostOf(i)));
    }
    const rest = Array.from({ length: SHOPS }, (_, i) => i).filter((i) => !measured.has(i));
    const started = performance.now();
    const worker = async () => {
      for (let i = rest.pop(); i !== undefined; i = rest.pop()) await getMs(child.url, hostOf(i));
    };
    await Promise.all(Array.from({ length: TOUCHERS }, worker));
    const touchSeconds = (performance.now() - started) / 1000;
    await sleep(1000);
    const { rss, hwm } = rssMb(pid);
    return {
      startupMs: child.startupMs,
      idle,
      coldP50Ms: median(cold),
      coldP95Ms: percentile(cold, 95),
      warmP50Ms: median(warm),
      warmP95Ms: percentile(warm, 95),
      touchSeconds,
      touchedMb: rss,
      peakMb: hwm,
      fds: fdCount(pid),
    };
  } finally {
    await child.stop();
  }
}

// ------------------------------------------------------------------------------------ Litestream

type S3 = Awaited<ReturnType<typeof startS3>>;

/** Keys the bucket holds under `prefix` (s3rver answers the whole listing when asked for 10 000). */
async function keys(s3: S3, prefix: string): Promise<string[]> {
  const response = await fetch(
    `${s3.endpoint}/${s3.bucket}?prefix=${encodeURIComponent(prefix)}&max-keys=10000`,
  );
  const xml = await response.text();
  if (response.status !== 200) throw new Error(`listing ${prefix}: ${response.status} ${xml}`);
  return [...xml.matchAll(/<Key>([^<]+)<\/Key>/g)].map((m) => m[1]!);
}

interface Litestream {
  pid: number;
  /** Its soft limit of open files. */
  maxFds: number;
  mb: number;
  peakMb: number;
  fds: number;
  cpuSeconds: number;
}

function litestreamOf(serverPid: number): Litestream | null {
  const pid = childPids(serverPid, "litestream")[0];
  if (pid === undefined) return null;
  try {
    const { rss, hwm } = rssMb(pid);
    const limits = readFileSync(`/proc/${pid}/limits`, "utf8");
    const maxFds = Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1]);
    return { pid, maxFds, mb: rss, peakMb: hwm, fds: fdCount(pid), cpuSeconds: cpuSeconds(pid) };
  } catch {
    return null;
  }
}

/**
 * Seconds from the server's spawn until each sampled shop has an object under tenants/<id>/, with
 * Litestream's RSS and fds along the way. Past BENCH_LITESTREAM_MB of RSS the run gives up
 * (`capped`): on a shared box Litestream may not take the memory of everything else. The cap is
 * checked once per listing pass, which takes a minute when s3rver is busy: RSS can overshoot it.
 */
async function streamingTimes(child: Child, s3: S3, ids: string[], spawnedAt: number) {
  const pending = new Set(spread(SAMPLE).map((i) => ids[i]!));
  const seconds: number[] = [];
  const streamed: string[] = [];
  const timeline: { s: number; inBucket: number; mb: number; fds: number }[] = [];
  const deadline = spawnedAt + STREAM_S * 1000;
  let peak = { mb: 0, fds: 0 };
  let capped = false;
  /** Litestream pids seen: more than one means the server had to start it again (it exited). */
  const pids = new Set<number>();
  let lastPrint = performance.now();
  while (pending.size > 0 && performance.now() < deadline && !capped) {
    for (const id of [...pending]) {
      if ((await keys(s3, `tenants/${id}/`)).length === 0) continue;
      pending.delete(id);
      streamed.push(id);
      seconds.push((performance.now() - spawnedAt) / 1000);
    }
    const ls = litestreamOf(child.proc.pid);
    if (ls) {
      peak = { mb: Math.max(peak.mb, ls.mb), fds: Math.max(peak.fds, ls.fds) };
      pids.add(ls.pid);
    }
    capped = (ls?.mb ?? 0) > LITESTREAM_CAP_MB;
    if (performance.now() - lastPrint > 5000 || capped || pending.size === 0) {
      lastPrint = performance.now();
      const s = (lastPrint - spawnedAt) / 1000;
      timeline.push({ s, inBucket: SAMPLE - pending.size, mb: ls?.mb ?? 0, fds: ls?.fds ?? 0 });
      console.log(
        `  ${fmt(s, 0)} s: ${SAMPLE - pending.size}/${SAMPLE} sampled shops in the bucket; litestream ` +
          `${ls ? `pid ${ls.pid} ${fmt(ls.mb, 0)} MB, ${ls.fds} fds, ${fmt(ls.cpuSeconds, 1)} CPU s` : "not running"}`,
      );
    }
    await sleep(250);
  }
  return { seconds, streamed, missing: pending.size, capped, peak, timeline, processes: pids.size };
}

/** A cart created on a shop, then the time until a WAL segment not there before is in the bucket. */
async function writeLag(child: Child, s3: S3, id: string, host: string): Promise<number> {
  const wal = async () => (await keys(s3, `tenants/${id}/`)).filter((k) => k.includes("/wal/"));
  const before = new Set(await wal());
  const response = await fetch(`${child.url}/v1/carts`, {
    method: "POST",
    headers: { host, "content-type": "application/json" },
    body: "{}",
  });
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`POST /v1/carts (${host}) answered ${response.status}: ${text}`);
  const acknowledged = performance.now();
  while (performance.now() - acknowledged < 30_000) {
    if ((await wal()).some((k) => !before.has(k))) return performance.now() - acknowledged;
    await sleep(20);
  }
  return Number.NaN;
}

/** Litestream processes replicating `dataDir`, whoever their parent is now (a dead server's are orphans). */
function litestreamsOn(dataDir: string): number[] {
  const config = `${dataDir}/litestream.yml`;
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return isLitestream(pid) && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(config);
      } catch {
        return false;
      }
    });
}

const isLitestream = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "litestream";
  } catch {
    return false;
  }
};

/** Seconds until Litestream is gone once its server stopped; NaN when it is still there after 10 s. */
async function exitAfterStop(pid: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 10_000) {
    if (!isLitestream(pid)) return (performance.now() - started) / 1000;
    await sleep(50);
  }
  return Number.NaN;
}

async function replicated(dataDir: string, ids: string[]) {
  const s3 = await startS3();
  try {
    const spawnedAt = performance.now();
    const child = await start(dataDir, {
      REPLICA_URL: `s3://${s3.bucket}`,
      REPLICA_ENDPOINT: s3.endpoint,
      REPLICA_ACCESS_KEY_ID: "S3RVER",
      REPLICA_SECRET_ACCESS_KEY: "S3RVER",
      REPLICA_SYNC_INTERVAL_MS: String(SYNC_MS),
    });
    let litestreamPid: number | undefined;
    let exitSeconds = Number.NaN;
    try {
      const streaming = await streamingTimes(child, s3, ids, spawnedAt);
      litestreamPid = litestreamOf(child.proc.pid)?.pid;
      const lags: number[] = [];
      // Only shops Litestream streams already (the lag of a write, not of its start); none once capped.
      if (!streaming.capped)
        for (const id of streaming.streamed.slice(0, WRITES)) {
          lags.push(await writeLag(child, s3, id, hostOf(ids.indexOf(id))));
          if (Number.isNaN(lags.at(-1))) break; // not shipped in 30 s: the next would not be either
        }
      // After the writes: Litestream streaming every shop, past its start.
      const settled = litestreamOf(child.proc.pid);
      litestreamPid = settled?.pid ?? litestreamPid;
      const server = rssMb(child.proc.pid).rss;
      const serverFds = fdCount(child.proc.pid);
      await child.stop();
      if (litestreamPid !== undefined) exitSeconds = await exitAfterStop(litestreamPid);
      return { streaming, litestream: settled, lags, serverMb: server, serverFds, exitSeconds };
    } catch (error) {
      console.error(`the replicating server failed; what it wrote:\n${child.output().slice(-4000)}`);
      throw error;
    } finally {
      await child.stop();
      // The server only signals its Litestream: end the one this run started if it is still there.
      for (const pid of litestreamsOn(dataDir)) process.kill(pid, "SIGKILL");
    }
  } finally {
    await s3.close();
  }
}

// ------------------------------------------------------------------------------------------- main

const dataDir = makeTempDir("node-scale");
const pool = loadConfig({}).tenantPoolSize;
try {
  console.log(`${SHOPS} shops, TENANT_POOL_SIZE ${pool} (default), ${navigator.hardwareConcurrency} cores`);
  const created = createShops(dataDir);
  const first = created.ms.slice(0, Math.ceil(SHOPS / 10));
  const last = created.ms.slice(-Math.ceil(SHOPS / 10));
  console.log(
    `created ${SHOPS} shops in ${fmt(created.ms.reduce((a, b) => a + b, 0) / 1000, 1)} s: ` +
      `p50 ${fmt(median(created.ms))} ms, p95 ${fmt(percentile(created.ms, 95))} ms`,
  );
  const touched = await coldAndTouchAll(dataDir);
  console.log(`touched: ${JSON.stringify(touched)}`);
  const replica = await replicated(dataDir, created.ids);
  console.log(`replicated: ${JSON.stringify({ ...replica, streaming: undefined })}`);

  const stream = replica.streaming.seconds;
  const ls = replica.litestream;
  const lagOk = replica.lags.filter((x) => !Number.isNaN(x));
  const rows: [string, number, number | undefined][] = [
    [`create a shop p50, all ${SHOPS} (floor: first 10%) ms`, median(created.ms), median(first)],
    [
      `create a shop p95, all ${SHOPS} (floor: first 10% p95) ms`,
      percentile(created.ms, 95),
      percentile(first, 95),
    ],
    [`create a shop p50, last 10% (floor: first 10%) ms`, median(last), median(first)],
    [`server start-up, ${SHOPS} shops, ms`, touched.startupMs, undefined],
    [`first request to a cold shop p50 (floor: warm p50) ms`, touched.coldP50Ms, touched.warmP50Ms],
    [`first request to a cold shop p95 (floor: warm p95) ms`, touched.coldP95Ms, touched.warmP95Ms],
    [`server RSS after touching all (floor: idle) MB`, touched.touchedMb, touched.idle.mb],
    [`server peak RSS while touching (floor: idle) MB`, touched.peakMb, touched.idle.mb],
    [`server fds after touching all (floor: idle)`, touched.fds, touched.idle.fds],
    [`touching ${SHOPS - COLD} shops, ${TOUCHERS} at a time, s`, touched.touchSeconds, undefined],
    [`litestream: sampled shops in the bucket (of ${SAMPLE})`, stream.length, SAMPLE],
    [`litestream: stopped at its RSS cap (1 = yes)`, replica.streaming.capped ? 1 : 0, undefined],
    [
      `litestream: processes seen (more than 1: it exited, restarted)`,
      replica.streaming.processes,
      undefined,
    ],
    [`litestream: s from spawn to first sampled shop in the bucket`, stream[0] ?? Number.NaN, undefined],
    [
      `litestream: s from spawn to last sampled shop (floor: p50 of them)`,
      stream.at(-1) ?? Number.NaN,
      median(stream),
    ],
    [`write → WAL segment in bucket p50 (floor: sync interval) ms`, median(lagOk), SYNC_MS],
    [`write → WAL segment in bucket max (floor: sync interval) ms`, Math.max(...lagOk), SYNC_MS],
    [
      `writes whose WAL did not arrive in 30 s (of ${replica.lags.length})`,
      replica.lags.length - lagOk.length,
      undefined,
    ],
    [`litestream RSS at the end (floor: server RSS) MB`, ls?.mb ?? Number.NaN, replica.serverMb],
    [`litestream highest RSS seen MB`, replica.streaming.peak.mb, undefined],
    [`litestream highest fds seen (floor: server fds)`, replica.streaming.peak.fds, replica.serverFds],
    [`litestream highest fds seen (floor: its open-files limit)`, replica.streaming.peak.fds, ls?.maxFds],
    [`litestream CPU s until then`, ls?.cpuSeconds ?? Number.NaN, undefined],
    [`litestream gone after the server stopped, s (NaN: not in 10 s)`, replica.exitSeconds, undefined],
  ];
  printTable(
    ["measure", "value", "floor", "ratio"],
    rows.map(([name, value, floor]) => [
      name,
      fmt(value),
      floor === undefined ? "–" : fmt(floor),
      floor === undefined ? "–" : fmt(value / floor),
    ]),
  );
  const saved = { shops: SHOPS, pool, created: { first, last, all: created.ms }, touched, replica, rows };
  console.log(`results saved to ${saveResults(`node-scale-${SHOPS}`, saved)}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
