import { acpModule } from "./acp/module.ts";
import { agentGrantedOperations, agentsModule } from "./agents/module.ts";
import { authModule } from "./auth/module.ts";
import { cartModule } from "./cart/module.ts";
import { catalogModule } from "./catalog/module.ts";
import { createCheckoutModule } from "./checkout/module.ts";
import type { Module } from "./core/module.ts";
import { customersModule } from "./customers/module.ts";
import { dashboardModule } from "./dashboard/module.ts";
import { emailModule } from "./email/module.ts";
import { createMcpModule } from "./mcp/module.ts";
import { mediaModule } from "./media/module.ts";
import { nodesModule } from "./nodes/module.ts";
import { oauthModule } from "./oauth/module.ts";
import { mcpChallenge } from "./oauth/runtime.ts";
import { createOrdersModule } from "./orders/module.ts";
import { checkoutPayments, paymentsModule } from "./payments/module.ts";
import { setupModule } from "./setup/module.ts";
import { systemModule } from "./system/module.ts";
import { ucpMcpTools } from "./ucp/mcp-tools.ts";
import { createUcpModule } from "./ucp/module.ts";
import { webhooksModule } from "./webhooks/module.ts";

/**
 * Every module of the service, in dependency order (each imports only from those before it) and in
 * the order of the OpenAPI document. Adding a domain is adding its module here.
 */
export const modules: readonly Module[] = [
  systemModule,
  authModule,
  catalogModule,
  mediaModule,
  cartModule,
  // Orders start provider payments and refunds through the payments module (which imports orders).
  createOrdersModule(checkoutPayments),
  customersModule,
  paymentsModule,
  emailModule,
  webhooksModule,
  setupModule,
  agentsModule,
  // An agent's tools/list is exactly its effective grants (the agents module's lookup, wired here).
  // A 401 there names the OAuth metadata (the oauth module's challenge).
  // UCP's checkout tools are served beside the operations' ones (the ucp module's MCP binding).
  createMcpModule({
    grantedOperations: agentGrantedOperations,
    challenge: mcpChallenge,
    protocolTools: ucpMcpTools,
  }),
  // MCP clients sign in with OAuth: their tokens stand for agents (the agents module's grants).
  oauthModule,
  // Checkout sessions: a cart, a buyer and the choices an agentic-commerce protocol makes.
  createCheckoutModule(checkoutPayments),
  // UCP on each shop's host: a translation of checkout sessions.
  createUcpModule(checkoutPayments),
  // ACP on each shop's host, for the platforms the merchant lets in: a translation of checkout sessions.
  acpModule,
  // The shops of this node as files: export, import, erase, restore (the command line's).
  nodesModule,
  // The merchant dashboard: a page that calls the operations above over HTTP, like any client.
  dashboardModule,
];
