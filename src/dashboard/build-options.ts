/**
 * How the dashboard's page is bundled, both into the compiled binary (scripts/build.ts) and, when
 * the service runs from source, on its first request (./serve.ts). React picks its production build
 * from `process.env.NODE_ENV`, written into the bundle here (the server reads its own environment
 * through `loadConfig`, never through that expression).
 */
export const DASHBOARD_BUILD = {
  minify: true,
  define: { "process.env.NODE_ENV": '"production"' },
} as const;

/** Bun's Tailwind plugin: a build-time tool, loaded by name so that the binary never bundles it. */
export async function tailwindPlugin(): Promise<import("bun").BunPlugin> {
  const name = "bun-plugin-tailwind";
  return (await import(name)).default;
}
