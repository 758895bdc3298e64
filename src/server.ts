import { createApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { ensureDemoStore, ensureDemoTenant, heldSecrets } from "./demo.ts";

/**
 * Bun's own body limit, out of reach: Bun answers a bare 413 (no JSON body, no request id, no log
 * line) before `fetch` runs, so the API enforces MAX_BODY_BYTES itself on every request (a declared
 * length in `app.fetch`, a streamed body while it is read) and closes the connection on its 413.
 */
export const BUN_MAX_REQUEST_BODY_SIZE = Number.MAX_SAFE_INTEGER;

/** Starts the HTTP service; returns the Bun server and the app (tests and benchmarks start it this way). */
export async function startServer(config: Config) {
  const app = createApp(config);
  const demo = config.production ? await ensureDemoStore(app.ctx) : await ensureDemoTenant(app.ctx);
  // The outbox's drainer and the modules' background work (the payments expiry sweep); `app.close` stops them.
  app.start();
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: BUN_MAX_REQUEST_BODY_SIZE,
    fetch: (request, srv) => app.fetch(request, srv),
  });
  const origin = `http://localhost:${server.port}`;
  // One write, so whoever reads the start (a person, `tee`, a supervisor) sees the whole banner at once.
  const banner = [
    `Commerce service listening on ${origin} (data in ${config.dataDir})`,
    `  API reference: ${origin}/v1/docs   OpenAPI: ${origin}/v1/openapi.json`,
  ];
  if (demo) {
    banner.push(`  Demo store "${demo.org.name}" (${demo.org.id}) answers Host ${demo.host}:`);
    banner.push(`    curl http://${demo.host}:${server.port}/v1/me`);
    if (heldSecrets(demo)) {
      banner.push(`  Demo admin API key (shown only now, keep it): ${demo.apiKey}`);
      banner.push(`    curl -H 'x-api-key: ${demo.apiKey}' ${origin}/v1/me`);
      if (demo.owner) banner.push(`  Dashboard sign-in: ${demo.owner.email} / ${demo.owner.password}`);
    } else {
      banner.push(
        "  No API key is printed in production; create the demo's admin key with the command line:",
      );
      banner.push(`    commerce apikey create --org ${demo.org.id} --scopes admin,storefront`);
    }
  }
  console.log(banner.join("\n"));
  if (!config.checkoutApiSecret) console.warn("CHECKOUT_API_SECRET is unset: payment webhooks answer 503");
  return { server, app };
}

const isAddressInUse = (error: unknown) => (error as { code?: unknown } | null)?.code === "EADDRINUSE";

/** Whether a listener can bind the port now (it is released again at once). */
function portFree(port: number, hostname: string | undefined): boolean {
  try {
    Bun.serve({ port, hostname, fetch: () => new Response(null, { status: 503 }) }).stop(true);
    return true;
  } catch (error) {
    if (isAddressInUse(error)) return false;
    throw error;
  }
}

/** Reads the environment and starts; a bad setting stops the process with one line naming the variable. */
export async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`configuration error: ${error.message}`);
    process.exit(1);
  }
  const portInUse = () => {
    console.error(`error: port ${config.port} is in use (set PORT to another port)`);
    process.exit(1);
  };
  // Checked before anything is written, so a busy port never creates the demo store (and loses its key).
  if (config.port !== 0 && !portFree(config.port, config.host)) portInUse();
  let started: Awaited<ReturnType<typeof startServer>>;
  try {
    started = await startServer(config);
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    portInUse();
    return;
  }
  const { server, app } = started;
  const stop = async () => {
    await server.stop(); // lets requests in flight finish before the databases close
    app.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // What starting left behind (building the OpenAPI document alone passes about 3 MB through the
  // heap) is collected once now, a few ms, rather than by the collector's own timing seconds later:
  // a process at rest holds only what it keeps.
  setImmediate(() => Bun.gc(true));
}

if (import.meta.main) await main();
