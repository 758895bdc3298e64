#!/usr/bin/env bun
/**
 * Lists the functions, methods and arrow functions under `src/` longer than a number of lines,
 * longest first, as `lines  file:line  name` (how they are found and named: function-lengths.ts).
 * `test/architecture.test.ts` holds `src/` to 80.
 *
 *   bun scripts/long-functions.ts          # longer than 80 lines
 *   bun scripts/long-functions.ts 40       # longer than 40 lines
 */
import { describeLongFunction, longFunctionsUnderSrc } from "./function-lengths.ts";

const limitArg = Bun.argv[2];
const limit = limitArg === undefined ? 80 : Number(limitArg);
if (!Number.isInteger(limit) || limit < 1) {
  console.error("usage: bun scripts/long-functions.ts [lines, default 80]");
  process.exit(2);
}

const found = await longFunctionsUnderSrc(limit);
for (const f of found) console.log(describeLongFunction(f));
console.log(`${found.length} function(s) longer than ${limit} lines under src/`);
