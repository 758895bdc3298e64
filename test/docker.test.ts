import { describe, expect, test } from "bun:test";
import { join } from "node:path";

// No Docker engine runs in CI, so the image is checked through what decides it: the build context
// (.dockerignore), the user the image runs as, and the README's commands. The binary the image runs
// is started with the image's settings by test/production-start.test.ts and test/config.test.ts.

const root = join(import.meta.dir, "..");
const read = (file: string) => Bun.file(join(root, file)).text();

/** Whether Docker leaves `path` out of the build context: a pattern matches it or a folder above it. */
function ignored(patterns: Bun.Glob[], path: string): boolean {
  const parts = path.split("/");
  return parts.some((_, i) => {
    const prefix = parts.slice(0, i + 1).join("/");
    return patterns.some((glob) => glob.match(prefix));
  });
}

describe("Docker image", () => {
  test("the build context leaves out customer databases, dependencies, builds and secrets, and keeps the sources", async () => {
    const patterns = (await read(".dockerignore"))
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#"))
      .map((line) => new Bun.Glob(line));
    for (const path of [
      "data/platform.sqlite",
      "data/backups/2026-11-24/org_1.db",
      "data/tenants/org_1.sqlite-wal",
      "backup/org_1.sqlite",
      "node_modules/elysia/package.json",
      "dist/commerce",
      ".git/HEAD",
      ".env",
      ".env.production",
      "secrets/integration.key",
      "test/artifacts/docs-page.png",
      "bench/results/catalog.json",
    ]) {
      expect({ path, ignored: ignored(patterns, path) }).toEqual({ path, ignored: true });
    }
    for (const path of [
      "package.json",
      "bun.lock",
      "tsconfig.json",
      "src/main.ts",
      "src/db/migrations/tenant/index.ts",
    ]) {
      expect({ path, ignored: ignored(patterns, path) }).toEqual({ path, ignored: false });
    }
  });

  test("the image runs as the uid the README tells operators to give a host directory", async () => {
    const dockerfile = await read("Dockerfile");
    const uid = /^USER (\d+):(\d+)$/m.exec(dockerfile);
    expect(uid).not.toBeNull();
    const [, user, group] = uid!;
    expect(user).not.toBe("0");
    const readme = await read("README.md");
    expect(readme).toContain(`chown -R ${user}:${group} /srv/commerce`);
    expect(readme).toContain(`chown ${user}:${group} /etc/commerce/integration.key`);
  });

  test("the README's docker run reads one key from a file made once, not a new key per container", async () => {
    const readme = await read("README.md");
    const run = /docker run -d(?:[^\n\\]|\\\n)*/.exec(readme)?.[0] ?? "";
    expect(run).toContain("-e INTEGRATION_ENCRYPTION_KEY_FILE=/run/secrets/integration.key");
    expect(run).toContain("/etc/commerce/integration.key:/run/secrets/integration.key:ro");
    expect(run).toContain("-e PLATFORM_DOMAIN=");
    expect(run).not.toContain("openssl");
    expect(run).not.toMatch(/INTEGRATION_ENCRYPTION_KEY=/);
  });
});
