// The service exactly as `bun src/server.ts` starts it, with one change for bench/agents.ts: the
// per-agent call limit (120 per minute, src/agents/runtime.ts) is lifted, since a load test of one
// agent would otherwise measure 429s. JWT verification, the jti replay cache and grant checks are
// untouched. Both sides of every comparison in bench/agents.ts run against this same process.
import { agentRuntime } from "../src/agents/runtime.ts";
import { loadConfig } from "../src/config.ts";
import { RateLimiter } from "../src/core/rate-limit.ts";
import { startServer } from "../src/server.ts";

const { server, app } = await startServer(loadConfig());
const runtime = agentRuntime(app.ctx);
if (!runtime) throw new Error("the agents module is not mounted");
runtime.limits.agentCalls = new RateLimiter(1_000_000_000, 60_000);

const stop = async () => {
  await server.stop();
  app.close();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
