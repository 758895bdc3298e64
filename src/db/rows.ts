import type { Column, Table } from "drizzle-orm";

/**
 * The value bun:sqlite hands back for a column, read from drizzle's column metadata: the declared
 * type when the driver stores it as is (text, integer, text enums, `$type` brands), otherwise the
 * driver's own type (`mode: "json"` columns come back as their JSON text, `mode: "boolean"` ones
 * as 0/1), plus `null` unless the column is NOT NULL.
 */
type RawValue<C extends Column> =
  | (C["_"]["data"] extends C["_"]["driverParam"] ? C["_"]["data"] : C["_"]["driverParam"])
  | (C["_"]["notNull"] extends true ? never : null);

/**
 * A row of `table` as a raw `sqlite.query(...).get()` returns it: keyed by the columns' database
 * (snake_case) names, with their stored types. `$inferSelect` is the Drizzle-side (camelCase,
 * decoded) shape instead. Use `Pick<Row<typeof table>, "id" | ...>` for the columns a query
 * selects, and spell out aliases and expressions next to it.
 */
export type Row<T extends Table> = {
  [K in keyof T["_"]["columns"] as T["_"]["columns"][K]["_"]["name"]]: RawValue<T["_"]["columns"][K]>;
};
