import { defineConfig } from "drizzle-kit";
import { modules } from "./src/modules.ts";

// The control plane: each module's platform tables.
export default defineConfig({
  dialect: "sqlite",
  schema: modules.flatMap((m) => (m.tables?.database === "platform" ? [`./${m.tables.file}`] : [])),
  out: "./src/db/migrations/platform",
});
