#!/usr/bin/env bun
/**
 * A longer run of the OpenAPI fuzzer (test/fuzz/openapi.test.ts runs a short, fixed-seed one).
 *
 *   bun run fuzz                          (200 cases per operation, a random seed)
 *   bun run fuzz --runs 1000 --seed 42    (or FUZZ_RUNS / FUZZ_SEED)
 *
 * Prints the seed first (pass it back to replay a run), each broken rule as it is found, then the
 * cases tried, the answers by status class, the count of server errors and of answers the OpenAPI
 * document does not declare. Exits 1 on any problem.
 */
import { parseArgs } from "node:util";
import { type ObservedAnswer, observeAnswers } from "../src/http/observe.ts";
import { FuzzTarget } from "../test/fuzz/harness.ts";
import { AnswerChecker, conformanceReport } from "../test/helpers/openapi-conformance.ts";

const { values } = parseArgs({
  options: { runs: { type: "string" }, seed: { type: "string" } },
});
const runs = Number(values.runs ?? process.env.FUZZ_RUNS ?? 200);
const seed = Number(values.seed ?? process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(seed)) {
  console.error("usage: bun run fuzz [--runs N] [--seed N]");
  process.exit(2);
}

console.log(`fuzz seed ${seed}, ${runs} cases per operation`);
const started = performance.now();
const target = await FuzzTarget.create();
// Every answer is also checked against the document, as the test suite checks its own.
const checker = new AnswerChecker(target.doc);
const mismatched: ObservedAnswer[] = [];
let observed = 0;
observeAnswers((answer) => {
  observed++;
  if (checker.declares(answer.operationId) && checker.problem(answer)) mismatched.push(answer);
});
try {
  const run = await target.fuzz({
    seed,
    runs,
    onProblem: (p) =>
      console.log(
        JSON.stringify({
          rule: p.rule,
          operationId: p.case.operationId,
          mutation: p.case.mutation,
          request: {
            method: p.case.method,
            url: p.case.url,
            headers: p.case.headers,
            body: p.case.body?.slice(0, 2000),
          },
          response: { status: p.status, body: p.body },
        }),
      ),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${run.cases} cases over ${target.operations.length} operations in ${seconds} s; ` +
      `by status ${JSON.stringify(run.byStatus)}; server errors: ${run.serverErrors}; problems: ${run.problems.length}`,
  );
  const report = conformanceReport(checker, mismatched);
  console.log(`${observed} answers checked against the OpenAPI document: ${mismatched.length} not declared`);
  if (report) console.log(report);
  process.exitCode = run.problems.length === 0 && !report ? 0 : 1;
} finally {
  target.close();
}
