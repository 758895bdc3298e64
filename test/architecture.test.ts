import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { Glob } from "bun";
import { describeLongFunction, longFunctionsIn, longFunctionsUnderSrc } from "../scripts/function-lengths.ts";
import { describeForeignWrite, foreignTableWrites, foreignWritesIn } from "../scripts/table-writes.ts";
import { modules } from "../src/modules.ts";

// Imports run one way. The domains, in this order, import only from those before them:
const DOMAINS = [
  "system",
  "auth",
  "catalog",
  "media",
  "cart",
  "orders",
  "customers",
  "payments",
  "email",
  "webhooks",
  "setup",
  "agents",
  "mcp",
  "oauth",
  "checkout",
  "ucp",
  "acp",
  "nodes",
] as const;
// Beneath them, importing no domain: operations, errors, schemas, storage, helpers, settings.
const FOUNDATION_DIRS = ["core", "db", "lib"];
const FOUNDATION_FILES = ["app-context.ts", "config.ts", "env.d.ts"];
// The transports (the REST API in http/, the dashboard page in dashboard/) may reach any domain;
// nothing below them imports them.
const TRANSPORTS = ["http", "dashboard"];
// Composition: the entry points and the module list, which may import anything.
const COMPOSITION = ["app.ts", "modules.ts", "cli.ts", "demo.ts", "server.ts", "main.ts"];

const SRC = join(import.meta.dir, "../src");

type Layer =
  | { kind: "foundation" }
  | { kind: "domain"; name: string; rank: number }
  | { kind: "transport" }
  | { kind: "composition" };

/** The layer of a file under src/ (path relative to src/, with `/`), or null when no rule names it. */
function layerOf(file: string): Layer | null {
  const [head, ...rest] = file.split("/");
  if (rest.length === 0) {
    if (COMPOSITION.includes(file)) return { kind: "composition" };
    if (FOUNDATION_FILES.includes(file)) return { kind: "foundation" };
    return null;
  }
  if (FOUNDATION_DIRS.includes(head!)) return { kind: "foundation" };
  if (TRANSPORTS.includes(head!)) return { kind: "transport" };
  const rank = (DOMAINS as readonly string[]).indexOf(head!);
  return rank === -1 ? null : { kind: "domain", name: head!, rank };
}

const describeLayer = (layer: Layer) => (layer.kind === "domain" ? `the ${layer.name} module` : layer.kind);

/** Why `from` may not import `to`, or null when it may. */
function forbidden(from: Layer, to: Layer): string | null {
  if (from.kind === "composition") return null;
  if (to.kind === "composition") return "only the entry points import the composition files";
  if (from.kind === "transport") return null;
  if (to.kind === "transport") return `${describeLayer(from)} must not import the HTTP transport`;
  if (from.kind === "foundation") {
    return to.kind === "foundation" ? null : `core/, db/ and lib/ must not import ${describeLayer(to)}`;
  }
  if (to.kind === "foundation" || to.kind !== "domain") return null;
  if (to.rank > from.rank)
    return `${describeLayer(from)} must not import ${describeLayer(to)}, which comes after it`;
  return null;
}

// `import … from "…"`, `import type … from "…"`, `export … from "…"`, `import "…"` and `import("…")`
// of relative paths; comments are dropped first so an example in a comment never counts.
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

const stripComments = (source: string) =>
  source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

/** Relative imports of a file, resolved to paths relative to src/ (imports of non-source files left out). */
function importsOf(file: string, source: string): string[] {
  const found = new Set<string>();
  for (const match of stripComments(source).matchAll(IMPORT)) {
    const target = normalize(join(dirname(file), match[1]!))
      .split("\\")
      .join("/");
    if (/\.(ts|tsx|js|mjs)$/.test(target)) found.add(target);
    else if (!/\.[a-z]+$/.test(target)) found.add(`${target}.ts`);
  }
  return [...found];
}

type Graph = Map<string, string[]>;

/** The cycles a depth-first walk closes (at least one through any files that import each other), each once. */
function findCycles(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const s = state.get(next);
      if (s === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        const key = [...cycle].sort().join("|");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push(cycle);
        }
      } else if (s === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Imports that break the layering, and files that no rule places. */
function layerViolations(graph: Graph): string[] {
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    if (!from) {
      problems.push(`src/${file}: not placed in any layer (add it to test/architecture.test.ts)`);
      continue;
    }
    for (const target of targets) {
      const to = layerOf(target);
      if (!to) continue; // reported as a file of its own
      const why = forbidden(from, to);
      if (why) problems.push(`src/${file} imports src/${target}: ${why}`);
    }
  }
  return problems.sort();
}

function sourceGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of new Glob("**/*.ts").scanSync(SRC)) {
    const path = file.split("\\").join("/");
    graph.set(path, importsOf(path, readFileSync(join(SRC, path), "utf8")));
  }
  return graph;
}

describe("the import graph of src/", () => {
  const graph = sourceGraph();

  test("is read: every relative import names a file that exists", () => {
    expect(graph.size).toBeGreaterThan(50);
    const missing: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets)
        if (!existsSync(join(SRC, target))) missing.push(`src/${file} → ${target}`);
    }
    expect(missing).toEqual([]);
  });

  test("has no import cycle", () => {
    const cycles = findCycles(graph).map((cycle) => [...cycle, cycle[0]].map((f) => `src/${f}`).join(" → "));
    expect(cycles).toEqual([]);
  });

  test("runs one way: foundation ← system ← auth ← catalog ← media ← cart ← orders ← customers ← http ← entry points", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  test("src/modules.ts lists the domains in the same order, then the dashboard (which serves a page and runs no operation)", () => {
    expect(modules.map((module) => module.name)).toEqual([...DOMAINS, "dashboard"]);
  });

  test("every tables file is declared by its module, so the Drizzle configs generate its migrations", () => {
    const declared = modules.flatMap((module) => (module.tables ? [module.tables.file] : []));
    const onDisk = [...new Glob("*/tables.ts").scanSync(SRC)].map(
      (file) => `src/${file.split("\\").join("/")}`,
    );
    expect(declared.sort()).toEqual(onDisk.sort());
    for (const module of modules) {
      if (module.tables) expect(module.tables.file).toBe(`src/${module.name}/tables.ts`);
    }
  });
});

describe("each table is written only by the module that owns it", () => {
  test("no module inserts, updates or deletes a table another module declares (stock through catalog's inventory, coupon use and carts through cart, orders, refunds and customer records through orders)", async () => {
    expect((await foreignTableWrites()).map(describeForeignWrite)).toEqual([]);
  });

  test("an order's status, payment status and fulfillment status are changed only by orders/lifecycle.ts (place-order inserts the first)", async () => {
    const literal = new Set<string>();
    const built = new Set<string>();
    for await (const file of new Glob("src/**/*.ts").scan(".")) {
      const source = readFileSync(file, "utf8");
      for (const match of source.matchAll(/UPDATE\s+orders\s+SET\s+([^"`]*)/g)) {
        if (/\b(status|payment_status|fulfillment_status)\s*=/.test(match[1]!)) literal.add(file);
        if (match[1]!.startsWith("${")) built.add(file);
      }
    }
    expect([...literal]).toEqual([]);
    // moveOrder builds its assignments from the move, each state checked against ORDER_MOVES.
    expect([...built]).toEqual(["src/orders/lifecycle.ts"]);
  });

  test("the check finds writes in SQL text and through Drizzle, and leaves the owner's own writes alone", () => {
    const declared = [
      { table: "variants", constant: "variants", owner: "catalog" },
      { table: "orders", constant: "orders", owner: "orders" },
    ];
    const source = [
      'db.query("UPDATE variants SET on_hand = 0");',
      "// UPDATE variants SET on_hand = 1 (a comment is no write)",
      "tenant.db.insert(variants).values({});",
      'db.query("INSERT INTO orders (id) VALUES (1)");',
      'db.query("INSERT INTO carts ... ON CONFLICT DO UPDATE SET x = 1");',
    ].join("\n");
    expect(foreignWritesIn("src/orders/x.ts", source, declared).map(describeForeignWrite)).toEqual([
      "src/orders/x.ts:1  orders writes variants (owned by catalog)",
      "src/orders/x.ts:3  orders writes variants (owned by catalog)",
    ]);
  });
});

// The next engineer reads a function whole; past this it is steps waiting for names.
const MAX_FUNCTION_LINES = 80;

test("no function in src/ is longer than 80 lines", async () => {
  const long = await longFunctionsUnderSrc(MAX_FUNCTION_LINES);
  expect(long.map(describeLongFunction)).toEqual([]);
});

describe("the checks themselves", () => {
  test("measure a function from its first to its last line, nested ones on their own, named by what encloses them", () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `    const v${i} = ${i};`).join("\n");
    const source = [
      "export function fits() {",
      lines(78),
      "}",
      "class Store {",
      "  save() {",
      "    items.map((item) => {",
      lines(80),
      "    });",
      "  }",
      "}",
    ].join("\n");
    expect(longFunctionsIn("src/x.ts", source, MAX_FUNCTION_LINES)).toEqual([
      { file: "src/x.ts", line: 82, lines: 84, name: "Store.save" },
      { file: "src/x.ts", line: 83, lines: 82, name: "Store.save.map(…)" },
    ]);
  });

  test("find a cycle, also one through a type-only import", () => {
    const graph: Graph = new Map([
      ["core/a.ts", importsOf("core/a.ts", 'import type { B } from "./b.ts";')],
      ["core/b.ts", importsOf("core/b.ts", 'import { c } from "../lib/c.ts";')],
      ["lib/c.ts", importsOf("lib/c.ts", 'export { a } from "../core/a.ts";')],
      ["lib/d.ts", []],
    ]);
    expect(findCycles(graph)).toEqual([["core/a.ts", "core/b.ts", "lib/c.ts"]]);
  });

  test("ignore imports in comments and of packages", () => {
    const source =
      '// import { x } from "../orders/x.ts";\n/* from "../cart/y.ts" */\nimport { Type } from "@sinclair/typebox";';
    expect(importsOf("catalog/a.ts", source)).toEqual([]);
  });

  test("refuse a backward domain import, a domain in core and a domain importing http", () => {
    const graph: Graph = new Map([
      ["catalog/a.ts", ["cart/b.ts", "auth/c.ts", "core/d.ts"]],
      ["auth/c.ts", ["orders/e.ts"]],
      ["core/d.ts", ["customers/f.ts"]],
      ["orders/e.ts", ["http/g.ts", "app.ts"]],
      ["http/g.ts", ["customers/f.ts"]],
      ["app.ts", ["http/g.ts"]],
      ["customers/f.ts", ["orders/e.ts", "catalog/a.ts"]],
      ["extra/h.ts", []],
    ]);
    expect(layerViolations(graph)).toEqual([
      "src/auth/c.ts imports src/orders/e.ts: the auth module must not import the orders module, which comes after it",
      "src/catalog/a.ts imports src/cart/b.ts: the catalog module must not import the cart module, which comes after it",
      "src/core/d.ts imports src/customers/f.ts: core/, db/ and lib/ must not import the customers module",
      "src/extra/h.ts: not placed in any layer (add it to test/architecture.test.ts)",
      "src/orders/e.ts imports src/app.ts: only the entry points import the composition files",
      "src/orders/e.ts imports src/http/g.ts: the orders module must not import the HTTP transport",
    ]);
  });

  test("resolve paths relative to the importing file", () => {
    expect(
      importsOf("orders/routes.ts", 'import { x } from "../cart/schema.ts";\nimport "./list.ts";'),
    ).toEqual(["cart/schema.ts", "orders/list.ts"]);
  });
});
