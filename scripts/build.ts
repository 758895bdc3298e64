// `bun run build`: the single executable dist/commerce, the dashboard's page, scripts and styles inside
// it. Bun's JavaScript API rather than `bun build --compile`, whose command line takes no plugin
// (the dashboard's styles need Bun's Tailwind plugin).
import { DASHBOARD_BUILD, tailwindPlugin } from "../src/dashboard/build-options.ts";

const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile: "dist/commerce" },
  ...DASHBOARD_BUILD,
  bytecode: true,
  // What is imported on first use (the MCP SDK, nodemailer, file-type) goes into chunks of its own,
  // which the binary loads only then: one bundle is loaded whole at start (docs/operations.md, "Memory").
  splitting: true,
  format: "esm",
  plugins: [await tailwindPlugin()],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${result.outputs.map((output) => output.path).join(", ")}`);
