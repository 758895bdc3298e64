import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

// The repository stands alone: its docs and code comments cite only what is in it, its links
// resolve, and the README's layout names every folder of src/.

const ROOT = join(import.meta.dir, "..");
const SELF = relative(ROOT, import.meta.path);

/** Specifications the project follows that live outside the repository: never cited from inside it. */
const OUTSIDE_DOCUMENTS = [
  /\bDOMAIN\.md\b/,
  /\bDESIGN\.md\b/,
  /\bPAYMENTS\.md\b/,
  /\bAGENTS\.md\b/,
  /\bSTACK-NOTES\.md\b/,
  /commerce-service-interface/,
  /\.\.\/shared\b/,
];

function filesUnder(folder: string, endings: RegExp): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .map((file) => join(folder, file))
    .filter((file) => endings.test(file) && !file.includes("node_modules"));
}

const SOURCES = ["src", "test", "bench", "scripts", "examples", "docs"].flatMap((folder) =>
  filesUnder(folder, /\.(ts|md|sql)$/),
);

describe("the repository stands alone", () => {
  test("no doc, comment or test cites a document outside the repository", () => {
    const citing: string[] = [];
    for (const file of [...SOURCES, "README.md", "Dockerfile", ".ci/run"]) {
      if (file === SELF) continue;
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const pattern of OUTSIDE_DOCUMENTS) {
        if (pattern.test(text)) citing.push(`${file}: ${pattern.source}`);
      }
    }
    expect(citing).toEqual([]);
  });

  test("every relative link in the README and docs/ points at a file of the repository", () => {
    const broken: string[] = [];
    let links = 0;
    for (const file of ["README.md", ...filesUnder("docs", /\.md$/)]) {
      const text = readFileSync(join(ROOT, file), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue; // http:, https:, mailto:
        links++;
        if (!existsSync(join(ROOT, dirname(file), target!))) broken.push(`${file} → ${target}`);
      }
    }
    expect(links).toBeGreaterThan(10);
    expect(broken).toEqual([]);
  });

  test("the README layout names every folder of src/", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const layout = readme.slice(
      readme.indexOf("## Layout"),
      readme.indexOf("##", readme.indexOf("## Layout") + 3),
    );
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `src/${entry.name}/`);
    expect(folders.filter((folder) => !layout.includes(folder))).toEqual([]);
  });
});
