import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/auth/tables.ts"],
  out: "./src/db/migrations/platform",
});
