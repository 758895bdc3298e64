import { createApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { ensureDemoTenant } from "./demo.ts";
import { startPaymentSweep } from "./payments/module.ts";

/** Starts the HTTP service; returns the Bun server and the app (tests and benchmarks start it this way). */
export async function startServer(config: Config) {
  const app = createApp(config);
  const demo = await ensureDemoTenant(app.ctx);
  // Unpaid payment attempts past their expiry are expired (stock and coupon uses released).
  const stopSweep = startPaymentSweep(app.ctx);
  const close = app.close;
  app.close = () => {
    stopSweep();
    close();
  };
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    // A little above the API's own limit, so the API answers with its JSON 413 body first.
    maxRequestBodySize: config.maxBodyBytes + 64 * 1024,
    fetch: (request, srv) => app.fetch(request, srv),
  });
  const origin = `http://localhost:${server.port}`;
  console.log(`Commerce service listening on ${origin} (data in ${config.dataDir})`);
  console.log(`  API reference: ${origin}/v1/docs   OpenAPI: ${origin}/v1/openapi.json`);
  if (demo) {
    console.log(`  Demo store "${demo.org.name}" (${demo.org.id}) answers Host ${demo.host}:`);
    console.log(`    curl http://${demo.host}:${server.port}/v1/me`);
    console.log(`  Demo admin API key (shown only now, keep it): ${demo.apiKey}`);
    console.log(`    curl -H 'x-api-key: ${demo.apiKey}' ${origin}/v1/me`);
  }
  if (!config.checkoutApiSecret) console.warn("CHECKOUT_API_SECRET is unset: payment webhooks answer 503");
  return { server, app };
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
  const { server, app } = await startServer(config);
  const stop = async () => {
    await server.stop(); // lets requests in flight finish before the databases close
    app.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.main) await main();
