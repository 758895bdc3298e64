import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ConfigError, loadConfig } from "../src/config.ts";

const ROOT = resolve(import.meta.dir, "..");

/** Runs `loadConfig(env)` and returns the `ConfigError` it throws (fails the test if it throws nothing else). */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

function expectRejected(env: Record<string, string>, variable: string) {
  const error = configError(env);
  expect(error.variable).toBe(variable);
  expect(error.message.startsWith(`${variable}: `)).toBe(true);
}

describe("loadConfig defaults", () => {
  test("an empty environment gives the documented defaults", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.baseUrl).toBe("http://localhost:3000");
    expect(config.apiPublicUrl).toBe("http://localhost:3000");
    expect(config.checkoutUrl).toBe("http://localhost:3000");
    expect(config.platformDomain).toBe("localhost");
    expect(config.agentDeviceAuthPage).toBe("/device/capabilities");
    expect(config.trustProxy).toBe(false);
    expect(config.logLevel).toBe("info");
    expect(config.tenantPoolSize).toBe(128);
    expect(config.maxBodyBytes).toBe(1_048_576);
    expect(config.mediaMaxShopBytes).toBe(200 * 1_048_576);
    expect(config.demoTenant).toBe(true);
    expect(config.production).toBe(false);
    expect(config.checkoutApiSecret).toBeUndefined();
    expect(config.integrationEncryptionKey).toBeUndefined();
    expect(config.agentProxyApiKey).toBeUndefined();
    expect(config.dataDir).toBe(resolve("data"));
  });

  test("empty and blank values count as unset", () => {
    const config = loadConfig({ PORT: "", BASE_URL: "   ", LOG_LEVEL: "", TRUST_PROXY: " " });
    expect(config.port).toBe(3000);
    expect(config.baseUrl).toBe("http://localhost:3000");
    expect(config.logLevel).toBe("info");
    expect(config.trustProxy).toBe(false);
  });

  test("the default BASE_URL follows PORT", () => {
    const config = loadConfig({ PORT: "8080" });
    expect(config.port).toBe(8080);
    expect(config.baseUrl).toBe("http://localhost:8080");
    expect(config.apiPublicUrl).toBe("http://localhost:8080");
    expect(config.checkoutUrl).toBe("http://localhost:8080");
  });

  test("BASE_URL defaults to API_PUBLIC_URL when only that is set", () => {
    const config = loadConfig({ API_PUBLIC_URL: "https://api.example.com" });
    expect(config.apiPublicUrl).toBe("https://api.example.com");
    expect(config.baseUrl).toBe("https://api.example.com");
    expect(config.checkoutUrl).toBe("https://api.example.com");
  });

  test("API_PUBLIC_URL and CHECKOUT_URL default to BASE_URL when only that is set", () => {
    const config = loadConfig({ BASE_URL: "https://shop.example.com" });
    expect(config.baseUrl).toBe("https://shop.example.com");
    expect(config.apiPublicUrl).toBe("https://shop.example.com");
    expect(config.checkoutUrl).toBe("https://shop.example.com");
  });

  test("BASE_URL, API_PUBLIC_URL and CHECKOUT_URL can all differ", () => {
    const config = loadConfig({
      BASE_URL: "https://auth.example.com",
      API_PUBLIC_URL: "https://api.example.com",
      CHECKOUT_URL: "https://pay.example.com",
    });
    expect(config.baseUrl).toBe("https://auth.example.com");
    expect(config.apiPublicUrl).toBe("https://api.example.com");
    expect(config.checkoutUrl).toBe("https://pay.example.com");
  });

  test("explicit values are read and typed", () => {
    const config = loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: "some/dir",
      PLATFORM_DOMAIN: "Shops.Example.COM",
      TRUST_PROXY: "TRUE",
      LOG_LEVEL: "DEBUG",
      TENANT_POOL_SIZE: "8",
      MAX_BODY_BYTES: "2048",
      DEMO_TENANT: "0",
      CHECKOUT_API_SECRET: "s".repeat(32),
      AGENT_DEVICE_AUTH_PAGE: "/approve/agents",
    });
    expect(config.port).toBe(0);
    expect(config.host).toBe("127.0.0.1");
    expect(config.dataDir).toBe(resolve("some/dir"));
    expect(config.platformDomain).toBe("shops.example.com");
    expect(config.trustProxy).toBe(true);
    expect(config.logLevel).toBe("debug");
    expect(config.tenantPoolSize).toBe(8);
    expect(config.maxBodyBytes).toBe(2048);
    expect(config.demoTenant).toBe(false);
    expect(config.checkoutApiSecret).toBe("s".repeat(32));
    expect(config.agentDeviceAuthPage).toBe("/approve/agents");
  });
});

describe("origin normalisation", () => {
  test("upper-case scheme and host are lowered and the default port dropped", () => {
    const config = loadConfig({
      API_PUBLIC_URL: "HTTPS://API.Example.com:443",
      BASE_URL: "HTTP://Auth.Example.COM:80/",
      CHECKOUT_URL: "https://Pay.Example.com:8443",
    });
    expect(config.apiPublicUrl).toBe("https://api.example.com");
    expect(config.baseUrl).toBe("http://auth.example.com");
    expect(config.checkoutUrl).toBe("https://pay.example.com:8443");
  });

  test("a trailing slash is accepted and removed", () => {
    expect(loadConfig({ BASE_URL: "https://x.com/" }).baseUrl).toBe("https://x.com");
  });

  test("a path is refused", () => {
    expectRejected({ BASE_URL: "https://x.com/api" }, "BASE_URL");
    expectRejected({ API_PUBLIC_URL: "https://x.com/v1/" }, "API_PUBLIC_URL");
  });

  test("a query is refused", () => {
    expectRejected({ BASE_URL: "https://x.com/?a=1" }, "BASE_URL");
    expectRejected({ CHECKOUT_URL: "https://x.com?a=1" }, "CHECKOUT_URL");
  });

  test("a fragment or credentials are refused", () => {
    expectRejected({ BASE_URL: "https://x.com/#top" }, "BASE_URL");
    expectRejected({ BASE_URL: "https://user:pw@x.com" }, "BASE_URL");
  });

  test("a non-http scheme is refused", () => {
    expectRejected({ BASE_URL: "ftp://x.com" }, "BASE_URL");
    expectRejected({ API_PUBLIC_URL: "javascript:alert(1)" }, "API_PUBLIC_URL");
  });

  test("something that is not a URL is refused", () => {
    expectRejected({ BASE_URL: "x.com" }, "BASE_URL");
  });
});

describe("bad values name their variable", () => {
  test("PORT must be a whole number in range", () => {
    expectRejected({ PORT: "abc" }, "PORT");
    expectRejected({ PORT: "70000" }, "PORT");
    expectRejected({ PORT: "-1" }, "PORT");
    expectRejected({ PORT: "80.5" }, "PORT");
    expect(loadConfig({ PORT: "65535" }).port).toBe(65535);
  });

  test("CHECKOUT_API_SECRET needs at least 32 characters", () => {
    expectRejected({ CHECKOUT_API_SECRET: "s".repeat(31) }, "CHECKOUT_API_SECRET");
    expect(loadConfig({ CHECKOUT_API_SECRET: "s".repeat(32) }).checkoutApiSecret).toBe("s".repeat(32));
  });

  test("INTEGRATION_ENCRYPTION_KEY of the wrong length is refused", () => {
    expectRejected({ INTEGRATION_ENCRYPTION_KEY: "ab".repeat(31) }, "INTEGRATION_ENCRYPTION_KEY");
    expectRejected({ INTEGRATION_ENCRYPTION_KEY: "ab".repeat(33) }, "INTEGRATION_ENCRYPTION_KEY");
    const shortBase64 = Buffer.from(new Uint8Array(31).fill(7)).toString("base64url");
    expectRejected({ INTEGRATION_ENCRYPTION_KEY: shortBase64 }, "INTEGRATION_ENCRYPTION_KEY");
    expectRejected({ INTEGRATION_ENCRYPTION_KEY: "not a key" }, "INTEGRATION_ENCRYPTION_KEY");
  });

  test("INTEGRATION_ENCRYPTION_KEY is required in production only", () => {
    expectRejected(
      { NODE_ENV: "production", PLATFORM_DOMAIN: "shops.example.com" },
      "INTEGRATION_ENCRYPTION_KEY",
    );
    expect(loadConfig({ NODE_ENV: "development" }).integrationEncryptionKey).toBeUndefined();
    const config = loadConfig({
      NODE_ENV: "production",
      PLATFORM_DOMAIN: "shops.example.com",
      INTEGRATION_ENCRYPTION_KEY: "0f".repeat(32),
    });
    expect(config.production).toBe(true);
    expect(config.integrationEncryptionKey?.length).toBe(32);
  });

  test("a 64-hex INTEGRATION_ENCRYPTION_KEY decodes to its 32 bytes", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 3);
    const hex = Buffer.from(bytes).toString("hex").toUpperCase();
    const key = loadConfig({ INTEGRATION_ENCRYPTION_KEY: hex }).integrationEncryptionKey;
    expect(key).toBeInstanceOf(Uint8Array);
    expect(key?.length).toBe(32);
    expect(Array.from(key ?? [])).toEqual(Array.from(bytes));
  });

  test("a base64url (and a padded base64) INTEGRATION_ENCRYPTION_KEY decodes to its 32 bytes", () => {
    // 0xfb/0xff bytes make the encodings contain '-' and '_' (base64url) or '+' and '/' (base64).
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 0xfb : 0xff));
    const url = Buffer.from(bytes).toString("base64url");
    expect(url).toHaveLength(43);
    expect(url).toMatch(/[-_]/);
    const fromUrl = loadConfig({ INTEGRATION_ENCRYPTION_KEY: url }).integrationEncryptionKey;
    expect(Array.from(fromUrl ?? [])).toEqual(Array.from(bytes));

    const padded = Buffer.from(bytes).toString("base64");
    expect(padded).toHaveLength(44);
    const fromPadded = loadConfig({ INTEGRATION_ENCRYPTION_KEY: padded }).integrationEncryptionKey;
    expect(Array.from(fromPadded ?? [])).toEqual(Array.from(bytes));
  });

  test("AGENT_PROXY_API_KEY as one plain key", () => {
    expect(loadConfig({ AGENT_PROXY_API_KEY: "ck_plain_key" }).agentProxyApiKey).toBe("ck_plain_key");
  });

  test("AGENT_PROXY_API_KEY as a JSON object of keys per org", () => {
    const config = loadConfig({ AGENT_PROXY_API_KEY: '{"org_a": "key-a", "org_b": "key-b"}' });
    expect(config.agentProxyApiKey).toEqual({ org_a: "key-a", org_b: "key-b" });
  });

  test("AGENT_PROXY_API_KEY as broken JSON or with a non-string value is refused", () => {
    expectRejected({ AGENT_PROXY_API_KEY: '{"org_a": "key-a"' }, "AGENT_PROXY_API_KEY");
    expectRejected({ AGENT_PROXY_API_KEY: '{"org_a": 42}' }, "AGENT_PROXY_API_KEY");
    expectRejected({ AGENT_PROXY_API_KEY: '{"org_a": ""}' }, "AGENT_PROXY_API_KEY");
    expectRejected({ AGENT_PROXY_API_KEY: "{}" }, "AGENT_PROXY_API_KEY");
  });

  test("AGENT_DEVICE_AUTH_PAGE must start with a slash", () => {
    expectRejected({ AGENT_DEVICE_AUTH_PAGE: "device/capabilities" }, "AGENT_DEVICE_AUTH_PAGE");
    expectRejected({ AGENT_DEVICE_AUTH_PAGE: "https://evil.example/approve" }, "AGENT_DEVICE_AUTH_PAGE");
  });

  test("TRUST_PROXY must be a boolean", () => {
    expectRejected({ TRUST_PROXY: "maybe" }, "TRUST_PROXY");
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
  });

  test("DEMO_TENANT must be a boolean", () => {
    expectRejected({ DEMO_TENANT: "yes" }, "DEMO_TENANT");
  });

  test("LOG_LEVEL must be a known level", () => {
    expectRejected({ LOG_LEVEL: "loud" }, "LOG_LEVEL");
    expect(loadConfig({ LOG_LEVEL: "silent" }).logLevel).toBe("silent");
  });

  test("TENANT_POOL_SIZE must be at least 1", () => {
    expectRejected({ TENANT_POOL_SIZE: "0" }, "TENANT_POOL_SIZE");
    expect(loadConfig({ TENANT_POOL_SIZE: "1" }).tenantPoolSize).toBe(1);
  });

  test("MEDIA_MAX_SHOP_BYTES is a whole number of bytes, 0 (no uploads) to 1 TiB", () => {
    expect(loadConfig({ MEDIA_MAX_SHOP_BYTES: "0" }).mediaMaxShopBytes).toBe(0);
    expect(loadConfig({ MEDIA_MAX_SHOP_BYTES: "5000" }).mediaMaxShopBytes).toBe(5000);
    expectRejected({ MEDIA_MAX_SHOP_BYTES: "-1" }, "MEDIA_MAX_SHOP_BYTES");
    expectRejected({ MEDIA_MAX_SHOP_BYTES: "1.5" }, "MEDIA_MAX_SHOP_BYTES");
    expectRejected({ MEDIA_MAX_SHOP_BYTES: String(2 ** 40 + 1) }, "MEDIA_MAX_SHOP_BYTES");
  });

  test("MAX_BODY_BYTES must be in range", () => {
    expectRejected({ MAX_BODY_BYTES: "1023" }, "MAX_BODY_BYTES");
    expectRejected({ MAX_BODY_BYTES: String(64 * 1_048_576 + 1) }, "MAX_BODY_BYTES");
  });

  test("PLATFORM_DOMAIN must be a DNS name", () => {
    expectRejected({ PLATFORM_DOMAIN: "shops example.com" }, "PLATFORM_DOMAIN");
    expectRejected({ PLATFORM_DOMAIN: "-shops.example.com" }, "PLATFORM_DOMAIN");
    expect(loadConfig({ PLATFORM_DOMAIN: "shops.example.com" }).platformDomain).toBe("shops.example.com");
  });
});

const PRODUCTION = {
  NODE_ENV: "production",
  PLATFORM_DOMAIN: "shops.example.com",
  INTEGRATION_ENCRYPTION_KEY: "0f".repeat(32),
};

describe("production defaults (NODE_ENV=production)", () => {
  test("PLATFORM_DOMAIN is required: its localhost default would serve every shop to Host {slug}.localhost", () => {
    const error = configError({ NODE_ENV: "production", INTEGRATION_ENCRYPTION_KEY: "0f".repeat(32) });
    expect(error.variable).toBe("PLATFORM_DOMAIN");
    expect(error.message).toContain("required when NODE_ENV=production");
    expect(loadConfig({}).platformDomain).toBe("localhost");
  });

  test("no demo store and no public sign-up unless DEMO_TENANT / ALLOW_SIGNUP say so", () => {
    const production = loadConfig(PRODUCTION);
    expect(production.demoTenant).toBe(false);
    expect(production.allowSignup).toBe(false);
    const opted = loadConfig({ ...PRODUCTION, DEMO_TENANT: "true", ALLOW_SIGNUP: "true" });
    expect(opted.demoTenant).toBe(true);
    expect(opted.allowSignup).toBe(true);
    const development = loadConfig({});
    expect(development.demoTenant).toBe(true);
    expect(development.allowSignup).toBe(true);
    expect(loadConfig({ ALLOW_SIGNUP: "false" }).allowSignup).toBe(false);
    expectRejected({ ALLOW_SIGNUP: "perhaps" }, "ALLOW_SIGNUP");
  });
});

describe("abuse limits", () => {
  test("defaults: 20 sign-ups and 100 sign-ins per address per hour, one hash per core, a queue of 100", () => {
    const { authLimits } = loadConfig({});
    expect(authLimits.signUpsPerHour).toBe(20);
    expect(authLimits.signInsPerHour).toBe(100);
    expect(authLimits.passwordHashConcurrency).toBe(availableParallelism());
    expect(authLimits.passwordHashQueue).toBe(100);
  });

  test("each limit is read from its variable and checked", () => {
    const { authLimits } = loadConfig({
      SIGNUP_RATE_LIMIT_PER_HOUR: "3",
      SIGNIN_RATE_LIMIT_PER_HOUR: "7",
      PASSWORD_HASH_CONCURRENCY: "1",
      PASSWORD_HASH_QUEUE: "0",
    });
    expect(authLimits).toEqual({
      signUpsPerHour: 3,
      signInsPerHour: 7,
      passwordHashConcurrency: 1,
      passwordHashQueue: 0,
    });
    expectRejected({ SIGNUP_RATE_LIMIT_PER_HOUR: "0" }, "SIGNUP_RATE_LIMIT_PER_HOUR");
    expectRejected({ SIGNIN_RATE_LIMIT_PER_HOUR: "many" }, "SIGNIN_RATE_LIMIT_PER_HOUR");
    expectRejected({ PASSWORD_HASH_CONCURRENCY: "0" }, "PASSWORD_HASH_CONCURRENCY");
    expectRejected({ PASSWORD_HASH_QUEUE: "-1" }, "PASSWORD_HASH_QUEUE");
  });
});

describe("outgoing email (SMTP_URL, MAIL_FROM)", () => {
  test("unset, nothing is configured and no email is sent", () => {
    expect(loadConfig({}).mail).toEqual({ smtpUrl: null, from: null });
  });

  test("smtp:// and smtps:// URLs are read with their sender", () => {
    const plain = loadConfig({
      SMTP_URL: "smtp://user:pass@mail.example.com:587",
      MAIL_FROM: "Shop <shop@example.com>",
    });
    expect(plain.mail).toEqual({
      smtpUrl: "smtp://user:pass@mail.example.com:587",
      from: "Shop <shop@example.com>",
    });
    const tls = loadConfig({ SMTP_URL: "smtps://mail.example.com", MAIL_FROM: "shop@example.com" });
    expect(tls.mail).toEqual({ smtpUrl: "smtps://mail.example.com", from: "shop@example.com" });
  });

  test("SMTP_URL without MAIL_FROM is a config error naming MAIL_FROM", () => {
    const error = configError({ SMTP_URL: "smtp://mail.example.com:587" });
    expect(error.variable).toBe("MAIL_FROM");
    expect(error.message).toBe("MAIL_FROM: is required when SMTP_URL is set");
  });

  test("an SMTP_URL that is not smtp(s) is refused without repeating its password", () => {
    for (const url of ["https://user:hunter2@mail.example.com", "mail.example.com:587", "smtp://"]) {
      const error = configError({ SMTP_URL: url, MAIL_FROM: "shop@example.com" });
      expect(error.variable).toBe("SMTP_URL");
      expect(error.message).not.toContain("hunter2");
    }
  });

  test("a MAIL_FROM that is not an address is refused", () => {
    expectRejected({ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "Shop" }, "MAIL_FROM");
    expectRejected({ SMTP_URL: "smtp://mail.example.com", MAIL_FROM: "Shop <not an address>" }, "MAIL_FROM");
    expectRejected({ MAIL_FROM: "two@example.com, three@example.com" }, "MAIL_FROM");
  });
});

describe("INTEGRATION_ENCRYPTION_KEY_FILE", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "commerce-keyfile-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const bytes = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);

  test("the key is read from the file, its trailing newline ignored, hex or base64", () => {
    const hexFile = join(dir, "hex.key");
    writeFileSync(hexFile, `${Buffer.from(bytes).toString("hex")}\n`, { mode: 0o600 });
    const fromHex = loadConfig({ INTEGRATION_ENCRYPTION_KEY_FILE: hexFile }).integrationEncryptionKey;
    expect(Array.from(fromHex ?? [])).toEqual(Array.from(bytes));
    const base64File = join(dir, "base64.key");
    writeFileSync(base64File, `${Buffer.from(bytes).toString("base64")}\r\n`);
    const fromBase64 = loadConfig({ INTEGRATION_ENCRYPTION_KEY_FILE: base64File }).integrationEncryptionKey;
    expect(Array.from(fromBase64 ?? [])).toEqual(Array.from(bytes));
  });

  test("it satisfies production in place of the variable", () => {
    const file = join(dir, "production.key");
    writeFileSync(file, Buffer.from(bytes).toString("hex"));
    const { INTEGRATION_ENCRYPTION_KEY: _, ...withoutKey } = PRODUCTION;
    const config = loadConfig({ ...withoutKey, INTEGRATION_ENCRYPTION_KEY_FILE: file });
    expect(Array.from(config.integrationEncryptionKey ?? [])).toEqual(Array.from(bytes));
  });

  test("both the variable and the file set is refused, naming both", () => {
    const file = join(dir, "both.key");
    writeFileSync(file, Buffer.from(bytes).toString("hex"));
    const error = configError({
      INTEGRATION_ENCRYPTION_KEY: "0f".repeat(32),
      INTEGRATION_ENCRYPTION_KEY_FILE: file,
    });
    expect(error.message).toBe(
      "INTEGRATION_ENCRYPTION_KEY_FILE: cannot be set together with INTEGRATION_ENCRYPTION_KEY; set only one",
    );
  });

  test("a missing file or a file that is not a key is refused, naming the file variable", () => {
    const missing = configError({ INTEGRATION_ENCRYPTION_KEY_FILE: join(dir, "absent.key") });
    expect(missing.variable).toBe("INTEGRATION_ENCRYPTION_KEY_FILE");
    expect(missing.message).toContain("ENOENT");
    const bad = join(dir, "bad.key");
    writeFileSync(bad, "not a key\n");
    expectRejected({ INTEGRATION_ENCRYPTION_KEY_FILE: bad }, "INTEGRATION_ENCRYPTION_KEY_FILE");
    const short = join(dir, "short.key");
    writeFileSync(short, "ab".repeat(31));
    expectRejected({ INTEGRATION_ENCRYPTION_KEY_FILE: short }, "INTEGRATION_ENCRYPTION_KEY_FILE");
  });
});

describe("server start-up with a bad setting", () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), "commerce-config-"));
  });
  afterAll(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  test("exits 1 with one stderr line naming the variable", async () => {
    const proc = Bun.spawn([process.execPath, "src/server.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: "abc", DATA_DIR: tmp },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [exitCode, stdout, stderr] = await Promise.all([
      proc.exited,
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
    ]);
    expect(exitCode).toBe(1);
    const lines = stderr.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
    expect(lines[0]).toContain("abc");
    expect(stdout).toBe("");
    // It stopped before touching the data directory.
    expect(existsSync(join(tmp, "platform.sqlite"))).toBe(false);
  });
});

describe("the directory of nodes", () => {
  const replica = { REPLICA_URL: "s3://shops/node-a" };
  const node = { NODE_ID: "a", NODE_URL: "http://10.0.0.1:3000" };

  test("unset, there is none; set, it names this node, its address and the lease", () => {
    expect(loadConfig(replica).directory).toBeNull();
    expect(loadConfig({ ...replica, ...node, DIRECTORY_URL: "s3://shops/directory" }).directory).toEqual({
      url: "s3://shops/directory",
      nodeId: "a",
      nodeUrl: "http://10.0.0.1:3000",
      leaseMs: 15_000,
    });
    expect(
      loadConfig({ ...replica, ...node, DIRECTORY_URL: "s3://shops/directory", LEASE_MS: "3000" }).directory
        ?.leaseMs,
    ).toBe(3000);
  });

  test("it needs the replica's bucket, a node id and a node URL", () => {
    expectRejected({ ...node, DIRECTORY_URL: "s3://shops/directory" }, "DIRECTORY_URL");
    expectRejected({ ...replica, ...node, DIRECTORY_URL: "s3://other-bucket/directory" }, "DIRECTORY_URL");
    expectRejected({ ...replica, ...node, DIRECTORY_URL: "https://shops/directory" }, "DIRECTORY_URL");
    expectRejected({ ...replica, NODE_URL: node.NODE_URL, DIRECTORY_URL: "s3://shops/directory" }, "NODE_ID");
    expectRejected({ ...replica, ...node, NODE_ID: "Node A", DIRECTORY_URL: "s3://shops/d" }, "NODE_ID");
    expectRejected({ ...replica, NODE_ID: "a", DIRECTORY_URL: "s3://shops/directory" }, "NODE_URL");
    expectRejected(
      { ...replica, ...node, DIRECTORY_URL: "s3://shops/directory", LEASE_MS: "10" },
      "LEASE_MS",
    );
  });
});
