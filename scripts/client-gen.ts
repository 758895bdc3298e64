#!/usr/bin/env bun
/**
 * Writes the typed client's types from the OpenAPI document the service serves.
 *
 *   bun run client:gen            (writes examples/api-types.ts)
 *   bun scripts/client-gen.ts OUT (writes OUT instead; the drift test compares it with the committed file)
 *
 * The document is taken from `GET /v1/openapi.json` of an app built with the default settings on a
 * throwaway data directory, so it is exactly what a running service answers (no second way of
 * building it to drift from). The output is deterministic: openapi-typescript, then Biome's
 * formatter with the project's settings, and no timestamp.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { OpenAPI3 } from "openapi-typescript";
import { createApp } from "../src/app.ts";
import { loadConfig } from "../src/config.ts";

const ROOT = resolve(import.meta.dir, "..");

/** Where `bun run client:gen` writes, relative to the repository root. */
export const CLIENT_TYPES_FILE = "examples/api-types.ts";

const HEADER = `/**
 * Types of the Commerce API (paths, operations, components), generated from the OpenAPI document
 * served at \`/v1/openapi.json\` by \`bun run client:gen\` (scripts/client-gen.ts, openapi-typescript).
 * Do not edit: change the operation declarations and regenerate. \`bun test\` fails while this file
 * differs from what the current document generates. Used with openapi-fetch:
 *
 *   import createClient from "openapi-fetch";
 *   import type { paths } from "./api-types.ts";
 *   const api = createClient<paths>({ baseUrl: "http://localhost:3000" });
 */

`;

/** The document a service with the default settings serves at `/v1/openapi.json`. */
export async function servedOpenApiDocument(): Promise<OpenAPI3> {
  // Settings from nothing (not process.env): the same document on every machine.
  const dataDir = mkdtempSync(join(tmpdir(), "commerce-client-gen-"));
  const app = createApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", DEMO_TENANT: "false" }));
  try {
    const response = await app.fetch(new Request("http://localhost/v1/openapi.json"));
    if (response.status !== 200) throw new Error(`GET /v1/openapi.json answered ${response.status}`);
    return (await response.json()) as OpenAPI3;
  } finally {
    app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Formats TypeScript source with the repository's Biome settings, as `biome format` would the file. */
async function formatWithBiome(source: string, path: string): Promise<string> {
  const biome = Bun.spawn([join(ROOT, "node_modules/.bin/biome"), "format", `--stdin-file-path=${path}`], {
    cwd: ROOT,
    stdin: new TextEncoder().encode(source),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [formatted, errors, exitCode] = await Promise.all([
    new Response(biome.stdout).text(),
    new Response(biome.stderr).text(),
    biome.exited,
  ]);
  if (exitCode !== 0) throw new Error(`biome format failed (${exitCode}): ${errors}`);
  return formatted;
}

/** The full text of the types file for the current document. */
export async function renderClientTypes(): Promise<string> {
  // Loaded here, not above: who needs only the document (the OpenAPI lint, the test preload) skips its load time.
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  const ast = await openapiTS(await servedOpenApiDocument(), { silent: true });
  return formatWithBiome(HEADER + astToString(ast), CLIENT_TYPES_FILE);
}

if (import.meta.main) {
  const arg = process.argv[2];
  const out = arg ? resolve(arg) : join(ROOT, CLIENT_TYPES_FILE);
  await Bun.write(out, await renderClientTypes());
  console.log(`Wrote ${out}`);
}
