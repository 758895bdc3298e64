import { resolve } from "node:path";
import { Glob } from "bun";
import ts from "typescript";

// Finds the functions, methods and arrow functions under `src/` longer than a number of lines, for
// `scripts/long-functions.ts` and the architecture test's length rule.
//
// A function's length runs from its first to its last line, nested functions included; a nested
// function long enough is listed on its own too. Names are qualified by what encloses them
// (`products.save`, `createApp.fetch`); a function with no name of its own is named after the
// call it is passed to (`defineOperation.handler` is `handler`, `items.map(…)` is `map(…)`).

const ROOT = resolve(import.meta.dir, "..");

export interface LongFunction {
  /** Relative to the repository, with `/`. */
  file: string;
  line: number;
  lines: number;
  name: string;
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration;

function isFunctionNode(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** The name a declaration gives itself or the binding it is assigned to, if any. */
function ownName(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const name = (node as ts.Node & { name?: ts.Node }).name;
  if (name) return name.getText(source);
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent) && isFunctionNode(node)) {
    const callee = parent.expression;
    const last = ts.isPropertyAccessExpression(callee) ? callee.name.getText(source) : callee.getText(source);
    return `${last}(…)`;
  }
  return undefined;
}

/** Enclosing names, outermost first: classes, functions and the bindings of object literals. */
function qualifiedName(node: FunctionNode, source: ts.SourceFile): string {
  const parts: string[] = [ownName(node, source) ?? "(anonymous)"];
  for (let at = node.parent; at && !ts.isSourceFile(at); at = at.parent) {
    const enclosing =
      isFunctionNode(at) || ts.isClassDeclaration(at) || ts.isClassExpression(at)
        ? ownName(at, source)
        : ts.isObjectLiteralExpression(at)
          ? ownName(at, source)
          : undefined;
    if (enclosing && enclosing !== parts[0]) parts.unshift(enclosing);
  }
  return parts.join(".");
}

/** The functions of one source text longer than `limit` lines, in source order. */
export function longFunctionsIn(path: string, text: string, limit: number): LongFunction[] {
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (isFunctionNode(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > limit)
        found.push({ file: path, line: first + 1, lines, name: qualifiedName(node, source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every function under `src/` longer than `limit` lines, longest first. */
export async function longFunctionsUnderSrc(limit: number): Promise<LongFunction[]> {
  const found: LongFunction[] = [];
  for await (const file of new Glob("src/**/*.{ts,tsx}").scan({ cwd: ROOT })) {
    const path = file.split("\\").join("/");
    found.push(...longFunctionsIn(path, await Bun.file(resolve(ROOT, path)).text(), limit));
  }
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

/** `lines  file:line  name`, as the script prints it and the test names a failure. */
export const describeLongFunction = (f: LongFunction) =>
  `${String(f.lines).padStart(5)}  ${f.file}:${f.line}  ${f.name}`;
