import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import * as authTables from "../../src/auth/tables.ts";
import type { coupons } from "../../src/cart/tables.ts";
import * as cartTables from "../../src/cart/tables.ts";
import * as catalogTables from "../../src/catalog/tables.ts";
import { type ProductStatus, products } from "../../src/catalog/tables.ts";
import { openPlatformDb } from "../../src/db/platform.ts";
import type { Row } from "../../src/db/rows.ts";
import { TenantPool } from "../../src/db/tenant-pool.ts";
import * as tenantTables from "../../src/db/tenant-tables.ts";
import { newId } from "../../src/lib/ids.ts";
import * as orderTables from "../../src/orders/tables.ts";

// ---------------------------------------------------------------- type level

/** True only when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(_: Equal<A, B>) => {};

test("Row maps every column to its database name, stored type and nullability", () => {
  // text enum keeps its values; JSON text is a string; boolean mode is the stored 0/1; nullable columns add null.
  same<
    Row<typeof products>,
    {
      seq: number;
      id: string;
      slug: string;
      status: ProductStatus;
      name: string;
      description: string | null;
      tags: string;
      images: string;
      options: string;
      tax_rate: number | null;
      requires_shipping: number;
      sort_name: string;
      min_price: number;
      max_price: number;
      created_at: number;
      updated_at: number;
    }
  >(true);
  same<
    Pick<Row<typeof coupons>, "id" | "type" | "min_subtotal" | "active">,
    {
      id: string;
      type: "percentage" | "fixed" | "free_shipping";
      min_subtotal: number | null;
      active: number;
    }
  >(true);
  same<Row<typeof authTables.domains>["organization_id"], string>(true);
  same<Row<typeof orderTables.orders>["coupon"], string | null>(true);
  // @ts-expect-error camelCase keys are the Drizzle-side model, not the raw row
  same<keyof Row<typeof products>, keyof typeof products.$inferSelect>(true);
});

// ---------------------------------------------------------------- runtime

const dir = mkdtempSync(join(tmpdir(), "commerce-rows-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each column's name and nullability as Drizzle declares them, against PRAGMA table_info of a migrated file. */
function compareWithFile(sqlite: import("bun:sqlite").Database, modules: object[]): string[] {
  const tables = modules.flatMap((m) => Object.values(m).filter((value): value is Table => is(value, Table)));
  expect(tables.length).toBeGreaterThan(0);
  const names = tables.map(getTableName);
  for (const table of tables) {
    const declared = Object.values(getTableColumns(table))
      .map((c) => `${c.name}${c.notNull ? " NOT NULL" : ""}`)
      .sort();
    const info = sqlite.query(`PRAGMA table_info(${getTableName(table)})`).all() as {
      name: string;
      notnull: number;
      pk: number;
    }[];
    // SQLite reports INTEGER PRIMARY KEY as nullable, yet it never holds NULL (it is the rowid).
    const actual = info.map((c) => `${c.name}${c.notnull || c.pk ? " NOT NULL" : ""}`).sort();
    expect({ table: getTableName(table), columns: actual }).toEqual({
      table: getTableName(table),
      columns: declared,
    });
  }
  return names;
}

test("the column names and NOT NULLs Row reads from the tables are those of the real files", async () => {
  const pool = new TenantPool(dir, 2);
  const orgId = newId("org");
  pool.create(orgId);
  await pool.with(orgId, (tenant) => {
    const names = compareWithFile(tenant.sqlite, [tenantTables, catalogTables, cartTables, orderTables]);
    expect(names).toEqual(
      expect.arrayContaining([
        "products",
        "variants",
        "categories",
        "carts",
        "coupons",
        "orders",
        "customers",
      ]),
    );
  });
  pool.close();
  const platform = openPlatformDb(join(dir, "platform"));
  const names = compareWithFile(platform.sqlite, [authTables]);
  expect(names).toEqual(
    expect.arrayContaining(["api_keys", "sessions", "members", "domains", "organizations"]),
  );
  platform.sqlite.close();
});

test("a raw row from a real file has exactly the keys and stored types of Row and of a Pick of it", async () => {
  const pool = new TenantPool(dir, 2);
  const orgId = newId("org");
  pool.create(orgId);
  await pool.with(orgId, (tenant) => {
    tenant.db
      .insert(products)
      .values({
        id: "prod_1",
        slug: "mug",
        status: "active",
        name: { en: "Mug" },
        tags: ["kitchen"],
        images: [],
        options: [],
        requiresShipping: true,
        sortName: "mug",
        minPrice: 900,
        maxPrice: 900,
        createdAt: 1,
        updatedAt: 2,
      })
      .run();

    const row = tenant.sqlite.query("SELECT * FROM products WHERE id = ?").get("prod_1");
    // Every key of the type must be written out here, and no other: `satisfies` rejects both.
    const expected = {
      seq: 1,
      id: "prod_1",
      slug: "mug",
      status: "active",
      name: '{"en":"Mug"}',
      description: null,
      tags: '["kitchen"]',
      images: "[]",
      options: "[]",
      tax_rate: null,
      requires_shipping: 1,
      sort_name: "mug",
      min_price: 900,
      max_price: 900,
      created_at: 1,
      updated_at: 2,
    } satisfies Row<typeof products>;
    expect(row).toEqual(expected);
    expect(Object.keys(row as object).sort()).toEqual(Object.keys(expected).sort());

    const picked = tenant.sqlite.query("SELECT id, slug, requires_shipping FROM products").get();
    const pick = { id: "prod_1", slug: "mug", requires_shipping: 1 } satisfies Pick<
      Row<typeof products>,
      "id" | "slug" | "requires_shipping"
    >;
    expect(picked).toEqual(pick);
  });
  pool.close();
});
