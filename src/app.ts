import type { Server } from "bun";
import { Elysia } from "elysia";
import { type AppContext, closeContext, createContext } from "./app-context.ts";
import { CallerResolver } from "./auth/caller.ts";
import { authOperations } from "./auth/routes.ts";
import { shippingAndCouponOperations } from "./cart/admin-routes.ts";
import { cartOperations } from "./cart/routes.ts";
import { catalogOperations } from "./catalog/routes.ts";
import type { Config } from "./config.ts";
import { checkDeclaredLength } from "./http/body.ts";
import { buildOpenApiDocument, docsPage } from "./http/openapi.ts";
import type { Operation } from "./http/operation.ts";
import { compileOperation, type RequestState, runOperation } from "./http/pipeline.ts";
import { assertRegistry } from "./http/registry.ts";
import { errorResponse, jsonResponse } from "./http/respond.ts";
import { customerOperations } from "./orders/customer-routes.ts";
import { orderOperations } from "./orders/routes.ts";
import { systemOperations } from "./system/routes.ts";

/** Every declared operation of the service, in the order of the OpenAPI document. */
export const operations: Operation[] = [
  ...systemOperations,
  ...authOperations,
  ...catalogOperations,
  ...cartOperations,
  ...shippingAndCouponOperations,
  ...orderOperations,
  ...customerOperations,
];

export interface App {
  ctx: AppContext;
  operations: Operation[];
  /** The whole HTTP service: what `Bun.serve` calls and what tests send requests to. */
  fetch(request: Request, server?: Server<unknown>): Promise<Response>;
  close(): void;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function clientIp(request: Request, server: Server<unknown> | undefined, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    const last = forwarded?.split(",").at(-1)?.trim();
    if (last) return last;
  }
  return server?.requestIP(request)?.address ?? null;
}

/** Builds the service; `extraOperations` lets tests declare operations beside the real ones. */
export function createApp(config: Config, extraOperations: Operation[] = []): App {
  const ctx = createContext(config);
  const { log } = ctx;
  const resolver = new CallerResolver(ctx);
  const declared = [...operations, ...extraOperations];
  assertRegistry(declared);

  const states = new WeakMap<Request, RequestState>();
  const openApiJson = JSON.stringify(buildOpenApiDocument(declared, config));
  const docsHtml = docsPage("/v1/openapi.json");

  const elysia = new Elysia({ normalize: false })
    .get(
      "/v1/openapi.json",
      () => new Response(openApiJson, { headers: { "content-type": "application/json; charset=utf-8" } }),
    )
    .get(
      "/v1/docs",
      () => new Response(docsHtml, { headers: { "content-type": "text/html; charset=utf-8" } }),
    )
    .onError(({ code, request }) => {
      const id = states.get(request)?.id ?? "";
      if (code === "NOT_FOUND") {
        return jsonResponse(404, {
          error: `No route ${request.method} ${new URL(request.url).pathname}`,
          code: "NOT_FOUND",
          status: 404,
        });
      }
      return errorResponse(new Error(`router error ${String(code)}`), log, id);
    });

  for (const op of declared) {
    const compiled = compileOperation(op);
    const path = op.path.replace(/\{(\w+)\}/g, ":$1");
    elysia.route(
      op.method,
      path,
      ({ request, params, query }) =>
        runOperation(
          ctx,
          resolver,
          compiled,
          request,
          params as Record<string, string>,
          query,
          states.get(request)!,
        ),
      { parse: "none" },
    );
  }
  const handle = elysia.handle;

  return {
    ctx,
    operations: declared,
    async fetch(request, server) {
      const started = performance.now();
      const incoming = request.headers.get("x-request-id");
      const state: RequestState = {
        id: incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID(),
        ip: () => clientIp(request, server, config.trustProxy),
      };
      states.set(request, state);
      let response: Response;
      try {
        checkDeclaredLength(request, config.maxBodyBytes);
        response = await handle(request);
      } catch (error) {
        response = errorResponse(error, log, state.id);
      }
      response.headers.set("x-request-id", state.id);
      log.info("request", {
        method: request.method,
        route: state.route ?? null,
        status: response.status,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
        org: state.orgId ?? null,
        caller: state.callerType ?? null,
        requestId: state.id,
      });
      return response;
    },
    close: () => closeContext(ctx),
  };
}
