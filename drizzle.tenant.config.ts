import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/db/tenant-tables.ts"],
  out: "./src/db/migrations/tenant",
});
