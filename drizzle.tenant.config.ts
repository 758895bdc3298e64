import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/db/tenant-tables.ts",
    "./src/catalog/tables.ts",
    "./src/cart/tables.ts",
    "./src/orders/tables.ts",
  ],
  out: "./src/db/migrations/tenant",
});
