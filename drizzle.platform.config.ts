import { defineConfig } from "drizzle-kit";
import { modules } from "./src/modules.ts";

// The control plane: each module's platform tables, and the payments module's control-plane table
// (the module declares its tenant tables).
export default defineConfig({
  dialect: "sqlite",
  schema: [
    ...modules.flatMap((m) => (m.tables?.database === "platform" ? [`./${m.tables.file}`] : [])),
    "./src/payments/platform-tables.ts",
  ],
  out: "./src/db/migrations/platform",
});
