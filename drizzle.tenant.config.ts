import { defineConfig } from "drizzle-kit";
import { modules } from "./src/modules.ts";

// Every organization's file: the core tables (idempotency, outbox) and each module's tenant tables.
export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/db/tenant-tables.ts",
    ...modules.flatMap((m) => (m.tables?.database === "tenant" ? [`./${m.tables.file}`] : [])),
  ],
  out: "./src/db/migrations/tenant",
});
