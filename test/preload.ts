import { afterAll } from "bun:test";
import { type ObservedAnswer, observeAnswers } from "../src/http/observe.ts";

// Loaded before every test file (bunfig.toml, `[test] preload`). Every answer an operation gives
// in process during the run, the fuzz test's included, is kept; after the last file, each is
// checked against the OpenAPI document the service serves (status declared for its operation,
// body fitting the declared schema). A mismatch fails the run: an `afterAll` of a preload runs once
// after all files, and its failure makes `bun test` exit non-zero. docs/api-conventions.md
// ("Answers match the document") says what is checked and what is not.

/** Distinct answers: the same answer given again adds nothing to check. */
const answers = new Map<string, ObservedAnswer>();
observeAnswers((answer) => {
  const key = `${answer.operationId} ${answer.method} ${answer.status} ${answer.contentType}\n${answer.body}`;
  if (!answers.has(key)) answers.set(key, answer);
});

afterAll(async () => {
  if (answers.size === 0) return;
  // Loaded only now: most runs of one file should not pay for Ajv and openapi-typescript up front.
  const { servedOpenApiDocument } = await import("../scripts/client-gen.ts");
  const { AnswerChecker, conformanceReport } = await import("./helpers/openapi-conformance.ts");
  const report = conformanceReport(new AnswerChecker(await servedOpenApiDocument()), answers.values());
  if (report) throw new Error(report);
});
