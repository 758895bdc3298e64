// The storefront HTTP pipeline: a cached catalog listing sent compressed against the same listing
// uncompressed, a 304 revalidation against the full 200, and the listing's bytes on the wire in
// each encoding. One service, seeded through the CLI, measured with wrk. Usage: bun bench/http.ts
import {
  createOrg,
  ensureWrk,
  envInt,
  fmt,
  LOOPBACK,
  loadSettings,
  median,
  printTable,
  runWrk,
  saveResults,
  seedProducts,
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
ensureWrk();
console.log(
  `http benchmark: GET ${PATH} on ${products} seeded products; wrk -t${settings.threads} ` +
    `-c${settings.connections} -d${settings.duration}s, ${settings.rounds} rounds, warm-up ${settings.warmup}s`,
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

const service = await startService();
try {
  const org = await createOrg(service.dataDir, { host: HOST });
  await seedProducts(service.dataDir, org.id, products);

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
  const checked = (label: string, result: WrkResult) => {
    if (result.non2xx > 0 || result.socketErrors > 0) {
      throw new Error(`${label}: ${result.non2xx} error responses, ${result.socketErrors} socket errors`);
    }
    return result;
  };
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
  if (!met) process.exitCode = 1;
} finally {
  await service.stop();
}
