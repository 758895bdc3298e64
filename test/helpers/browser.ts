import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";

// Pages a person uses are tested in a real headless Chromium: Debian's `chromium` driven by
// playwright-core (.ci/run installs it when missing).

const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].find((path) =>
    existsSync(path),
  );

/** Whether a file's browser tests skip: only locally without a browser, never in CI (they fail there instead). */
export function skipBrowserTests(file: string): boolean {
  const skip = CHROMIUM === undefined && !process.env.CI;
  if (skip) {
    console.warn(
      `${file}: browser tests SKIPPED: no chromium binary found (install it with ` +
        "`apt-get install -y chromium`, or set CHROMIUM_PATH). In CI (CI set) they fail instead.",
    );
  }
  return skip;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox"],
  });
}

/** Where a test keeps a screenshot (test/artifacts/, kept out of git), the folder made if needed. */
export function artifactPath(name: string): string {
  const folder = join(import.meta.dir, "../artifacts");
  mkdirSync(folder, { recursive: true });
  return join(folder, name);
}
