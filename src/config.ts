import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";

/** Every environment variable the service reads, typed. Built once at start by `loadConfig`. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Origin of the service itself (issuer, approval page, /mcp). */
  baseUrl: string;
  /** Origin of `/v1` (OpenAPI `servers`, agent execution target). */
  apiPublicUrl: string;
  /** Storefront hosts `{slug}.{platformDomain}` resolve to the organization with that slug. */
  platformDomain: string;
  /** Origin that receives provider webhooks (`/api/webhooks/...`). */
  checkoutUrl: string;
  /** Shared secret for `POST /v1/webhooks/payments/*`; unset disables those routes. */
  checkoutApiSecret: string | undefined;
  /** The bearer token `GET /metrics` wants; unset: the route is not served. */
  metricsToken: string | undefined;
  /** The bearer token of the nodes' and the operator's `/ops` routes (moving shops); unset: not served. */
  nodeToken: string | undefined;
  /** Where Litestream replicates this node's databases (`REPLICA_URL`…); null: no replication. */
  replica: {
    /** `s3://bucket/prefix`. */
    url: string;
    /** An S3-compatible store's address (MinIO, R2, …); null: AWS. */
    endpoint: string | null;
    region: string;
    accessKeyId: string | null;
    secretAccessKey: string | null;
    /** How late an acknowledged write may reach the bucket: what a node lost with its disk may miss. */
    syncIntervalMs: number;
    /** The Litestream binary; null: the one the npm package ships for this platform. */
    binary: string | null;
  } | null;
  /**
   * The directory of which node holds which shop, with a lease per node (`DIRECTORY_URL`, `NODE_ID`,
   * `NODE_URL`, `LEASE_MS`), in the replica's bucket and with its credentials; null: one node alone.
   */
  directory: {
    /** `s3://bucket/prefix`, shared by every node. */
    url: string;
    nodeId: string;
    /** Where the other nodes and the proxy reach this one. */
    nodeUrl: string;
    /** How long a node's claim on its shops lasts unless renewed (renewed every third of it). */
    leaseMs: number;
  } | null;
  /** 32-byte key for provider secrets; unset outside production means a generated key file. */
  integrationEncryptionKey: Uint8Array | undefined;
  /** Payment providers: operator credentials, base URLs, earlier encryption keys, sweep and ingress limits. */
  payments: PaymentsConfig;
  /** `x-api-key` for proxied agent execution: one key for every tenant, or one per org id. */
  agentProxyApiKey: string | Record<string, string> | undefined;
  agentDeviceAuthPage: string;
  trustProxy: boolean;
  logLevel: LogLevel;
  /** `TENANT_POOL_SIZE` (default 128): most tenant SQLite handles kept open at once (LRU; docs/storage.md, "Pool"). */
  tenantPoolSize: number;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
  /** `MEDIA_MAX_SHOP_BYTES` (default 200 MiB): the most bytes of media one shop may store (docs/media.md). */
  mediaMaxShopBytes: number;
  /** `MIN_FREE_DISK_MB` (default 256, 0: no check): below it, free space in DATA_DIR makes health `degraded`. */
  minFreeDiskMb: number;
  /** How long an outbox job may run before another attempt may take it (the process died). */
  outboxLeaseMs: number;
  /** Create and seed the demo organization on first start (`DEMO_TENANT`; off by default in production). */
  demoTenant: boolean;
  /** Public dashboard sign-up (`ALLOW_SIGNUP`; off by default in production: users come from the CLI). */
  allowSignup: boolean;
  /** Per-address limits on sign-up and sign-in, and the cap on concurrent password hashes. */
  authLimits: AuthLimitsConfig;
  /** Outgoing email (docs/email.md): both null when `SMTP_URL` is unset, and then nothing is sent. */
  mail: MailConfig;
  /** Outgoing webhooks (docs/webhooks.md). */
  webhooks: WebhooksConfig;
  production: boolean;
}

export interface WebhooksConfig {
  /** `WEBHOOKS_ALLOW_HTTP_LOCALHOST` (default false, refused in production): endpoints on `http://localhost` and loopback addresses. */
  allowHttpLocalhost: boolean;
}

export interface MailConfig {
  /** `SMTP_URL`: `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465` (TLS). */
  smtpUrl: string | null;
  /** `MAIL_FROM`: the sender, `Shop <shop@example.com>` or a bare address; required with `SMTP_URL`. */
  from: string | null;
}

export interface AuthLimitsConfig {
  /** `SIGNUP_RATE_LIMIT_PER_HOUR` (default 20): sign-ups per client address per hour, dashboard and stores together. */
  signUpsPerHour: number;
  /** `SIGNIN_RATE_LIMIT_PER_HOUR` (default 100): sign-in attempts per client address per hour, whatever the email. */
  signInsPerHour: number;
  /** `PASSWORD_HASH_CONCURRENCY` (default: the number of CPU cores): argon2id hashes or checks running at once. */
  passwordHashConcurrency: number;
  /** `PASSWORD_HASH_QUEUE` (default 100): password checks waiting for a slot; beyond it a 503 with Retry-After. */
  passwordHashQueue: number;
}

/** Operator-level payment credentials: used where a tenant has no configuration of its own. */
const PAYMENT_ENV_VARS = [
  "STRIPE_SECRET_KEY",
  "STRIPE_PUBLISHABLE_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "IFTHENPAY_ANTIPHISHING_KEY",
  "IFTHENPAY_MB_KEY",
  "IFTHENPAY_MBWAY_KEY",
  "EASYPAY_ACCOUNT_ID",
  "EASYPAY_API_KEY",
  "EASYPAY_WEBHOOK_SECRET",
] as const;
export type PaymentEnvVar = (typeof PAYMENT_ENV_VARS)[number];

interface PaymentsConfig {
  /** The variables of PAYMENT_ENV_VARS that are set. */
  credentials: Partial<Record<PaymentEnvVar, string>>;
  /** `STRIPE_API_BASE`, default https://api.stripe.com. */
  stripeApiBase: string;
  /** `IFTHENPAY_BASE_URL`, default https://api.ifthenpay.com. */
  ifthenpayBaseUrl: string;
  /** `EASYPAY_BASE_URL`: replaces both Easypay environments' origins when set. */
  easypayBaseUrl: string | undefined;
  /** `INTEGRATION_ENCRYPTION_PREVIOUS_KEYS`: older keys, still accepted for decryption (rotation). */
  previousEncryptionKeys: Uint8Array[];
  /** `PAYMENT_SWEEP_INTERVAL_S` (default 60): how often unpaid attempts past their expiry are looked for. */
  sweepIntervalS: number;
  /** `WEBHOOK_RATE_LIMIT_PER_MIN` (default 600): notifications per provider and organization at the ingress. */
  webhookRateLimitPerMin: number;
}

const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === "true" || raw === "1") return true;
  if (raw === "false" || raw === "0") return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

/** A bare origin: lower-case scheme and host, default port dropped; a path, query or fragment is refused. */
function origin(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL (got "${raw}")`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `must use http or https (got "${raw}")`);
  }
  if (url.pathname !== "/" || /[?#]/.test(raw) || url.username || url.password) {
    throw new ConfigError(name, `must be an origin without path, query or credentials (got "${raw}")`);
  }
  return url.origin;
}

/**
 * INTEGRATION_ENCRYPTION_KEY, or the content of the file INTEGRATION_ENCRYPTION_KEY_FILE names (a
 * Docker secret, a file on the volume); surrounding whitespace, such as the file's final newline,
 * is ignored. Both set is refused: which one wins would be a guess.
 */
function encryptionKey(env: Env, production: boolean): Uint8Array | undefined {
  const name = "INTEGRATION_ENCRYPTION_KEY";
  const fileName = `${name}_FILE`;
  const inline = read(env, name);
  const file = read(env, fileName);
  if (inline !== undefined && file !== undefined) {
    throw new ConfigError(fileName, `cannot be set together with ${name}; set only one`);
  }
  if (file !== undefined) return keyBytes(fileName, readKeyFile(fileName, file));
  if (inline === undefined) {
    if (production) throw new ConfigError(name, `(or ${fileName}) is required when NODE_ENV=production`);
    return undefined;
  }
  return keyBytes(name, inline);
}

function readKeyFile(name: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    throw new ConfigError(name, `cannot read "${path}" (${code})`);
  }
  return text.trim();
}

function keyBytes(name: string, raw: string): Uint8Array {
  let bytes: Uint8Array | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(raw)) bytes = Uint8Array.from(Buffer.from(raw, "hex"));
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) bytes = Uint8Array.from(Buffer.from(raw, "base64"));
  if (bytes?.length !== 32) {
    throw new ConfigError(name, "must be exactly 32 bytes as 64 hex characters or base64/base64url");
  }
  return bytes;
}

function paymentsConfig(env: Env): PaymentsConfig {
  const credentials: PaymentsConfig["credentials"] = {};
  for (const name of PAYMENT_ENV_VARS) {
    const value = read(env, name);
    if (value !== undefined) credentials[name] = value;
  }
  const previous = read(env, "INTEGRATION_ENCRYPTION_PREVIOUS_KEYS");
  return {
    credentials,
    stripeApiBase: origin(env, "STRIPE_API_BASE") ?? "https://api.stripe.com",
    ifthenpayBaseUrl: origin(env, "IFTHENPAY_BASE_URL") ?? "https://api.ifthenpay.com",
    easypayBaseUrl: origin(env, "EASYPAY_BASE_URL"),
    previousEncryptionKeys: (previous ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter((part) => part !== "")
      .map((part) => keyBytes("INTEGRATION_ENCRYPTION_PREVIOUS_KEYS", part)),
    sweepIntervalS: integer(env, "PAYMENT_SWEEP_INTERVAL_S", 60, 1, 86_400),
    webhookRateLimitPerMin: integer(env, "WEBHOOK_RATE_LIMIT_PER_MIN", 600, 1, 1_000_000),
  };
}

function proxyKey(env: Env): Config["agentProxyApiKey"] {
  const name = "AGENT_PROXY_API_KEY";
  const raw = read(env, name);
  if (raw === undefined || !raw.startsWith("{")) return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(name, 'must be one key or a JSON object {"<orgId>": "<key>"}');
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length === 0 || entries.some(([, v]) => typeof v !== "string" || v === "")) {
    throw new ConfigError(name, 'must be one key or a JSON object {"<orgId>": "<key>"} of non-empty strings');
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

function hostName(env: Env, name: string, fallback: string): string {
  const raw = (read(env, name) ?? fallback).toLowerCase();
  if (!/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(raw)) {
    throw new ConfigError(name, `must be a DNS name such as shops.example.com (got "${raw}")`);
  }
  return raw;
}

/**
 * PLATFORM_DOMAIN. Its `localhost` default serves every shop to anyone who sends
 * `Host: {slug}.localhost`, so production must name the real one.
 */
function platformDomain(env: Env, production: boolean): string {
  const name = "PLATFORM_DOMAIN";
  if (production && read(env, name) === undefined) {
    throw new ConfigError(name, "is required when NODE_ENV=production (shops answer {slug}.PLATFORM_DOMAIN)");
  }
  return hostName(env, name, "localhost");
}

function authLimits(env: Env): AuthLimitsConfig {
  return {
    signUpsPerHour: integer(env, "SIGNUP_RATE_LIMIT_PER_HOUR", 20, 1, 1_000_000),
    signInsPerHour: integer(env, "SIGNIN_RATE_LIMIT_PER_HOUR", 100, 1, 1_000_000),
    passwordHashConcurrency: integer(env, "PASSWORD_HASH_CONCURRENCY", availableParallelism(), 1, 1024),
    passwordHashQueue: integer(env, "PASSWORD_HASH_QUEUE", 100, 0, 100_000),
  };
}

/**
 * SMTP_URL and MAIL_FROM. The URL is checked here, not at the first send, so a typo stops the
 * start instead of failing every email later; its password is never repeated in the message.
 */
function mailConfig(env: Env): MailConfig {
  const smtpUrl = read(env, "SMTP_URL") ?? null;
  const from = read(env, "MAIL_FROM") ?? null;
  if (smtpUrl !== null) {
    let url: URL | undefined;
    try {
      url = new URL(smtpUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "smtp:" && url.protocol !== "smtps:") || url.hostname === "") {
      throw new ConfigError("SMTP_URL", "must be smtp://[user:pass@]host[:port] or smtps://…");
    }
    if (from === null) throw new ConfigError("MAIL_FROM", "is required when SMTP_URL is set");
  }
  if (from !== null && !/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(from)) {
    throw new ConfigError("MAIL_FROM", `must be an address or Name <address> (got "${from}")`);
  }
  return { smtpUrl, from };
}

/** A development receiver on this machine is never a production endpoint: the setting cannot be on there. */
function webhooksConfig(env: Env, production: boolean): WebhooksConfig {
  const allowHttpLocalhost = boolean(env, "WEBHOOKS_ALLOW_HTTP_LOCALHOST", false);
  if (allowHttpLocalhost && production) {
    throw new ConfigError("WEBHOOKS_ALLOW_HTTP_LOCALHOST", "must not be true when NODE_ENV=production");
  }
  return { allowHttpLocalhost };
}

const S3_URL = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9._/-]*)?$/;

/** `REPLICA_URL` (`s3://bucket/prefix`) and the settings that go with it; null when it is unset. */
function replicaConfig(env: Env): Config["replica"] {
  const url = read(env, "REPLICA_URL");
  if (url === undefined) return null;
  if (!S3_URL.test(url)) {
    throw new ConfigError("REPLICA_URL", `must be s3://bucket[/prefix] (got "${url}")`);
  }
  return {
    url,
    endpoint: origin(env, "REPLICA_ENDPOINT") ?? null,
    region: read(env, "REPLICA_REGION") ?? "us-east-1",
    accessKeyId: read(env, "REPLICA_ACCESS_KEY_ID") ?? null,
    secretAccessKey: read(env, "REPLICA_SECRET_ACCESS_KEY") ?? null,
    syncIntervalMs: integer(env, "REPLICA_SYNC_INTERVAL_MS", 1000, 100, 3_600_000),
    binary: read(env, "LITESTREAM_PATH") ?? null,
  };
}

/** `DIRECTORY_URL` and this node's name and address in it; null when it is unset. */
function directoryConfig(env: Env, replica: Config["replica"]): Config["directory"] {
  const url = read(env, "DIRECTORY_URL");
  if (url === undefined) return null;
  if (!replica)
    throw new ConfigError("DIRECTORY_URL", "needs REPLICA_URL (the bucket's address and credentials)");
  if (!S3_URL.test(url) || url.split("/")[2] !== replica.url.split("/")[2]) {
    throw new ConfigError(
      "DIRECTORY_URL",
      `must be s3://bucket/prefix in REPLICA_URL's bucket (got "${url}")`,
    );
  }
  const nodeId = read(env, "NODE_ID");
  if (nodeId === undefined || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(nodeId)) {
    throw new ConfigError(
      "NODE_ID",
      "must name this node (a-z, 0-9 and -, at most 63) when DIRECTORY_URL is set",
    );
  }
  const nodeUrl = origin(env, "NODE_URL");
  if (nodeUrl === undefined) throw new ConfigError("NODE_URL", "is required when DIRECTORY_URL is set");
  return { url, nodeId, nodeUrl, leaseMs: integer(env, "LEASE_MS", 15_000, 300, 600_000) };
}

export function loadConfig(env: Env = process.env): Config {
  const production = read(env, "NODE_ENV") === "production";
  const port = integer(env, "PORT", 3000, 0, 65535);
  const host = read(env, "HOST") ?? "0.0.0.0";
  const apiPublicUrlSetting = origin(env, "API_PUBLIC_URL");
  const baseUrl = origin(env, "BASE_URL") ?? apiPublicUrlSetting ?? `http://localhost:${port}`;
  const apiPublicUrl = apiPublicUrlSetting ?? baseUrl;

  const checkoutApiSecret = read(env, "CHECKOUT_API_SECRET");
  if (checkoutApiSecret !== undefined && checkoutApiSecret.length < 32) {
    throw new ConfigError("CHECKOUT_API_SECRET", "must be at least 32 characters when set");
  }

  const metricsToken = read(env, "METRICS_TOKEN");
  if (metricsToken !== undefined && metricsToken.length < 32) {
    throw new ConfigError("METRICS_TOKEN", "must be at least 32 characters when set");
  }

  const nodeToken = read(env, "NODE_TOKEN");
  if (nodeToken !== undefined && nodeToken.length < 32) {
    throw new ConfigError("NODE_TOKEN", "must be at least 32 characters when set");
  }

  const agentDeviceAuthPage = read(env, "AGENT_DEVICE_AUTH_PAGE") ?? "/device/capabilities";
  if (!/^\/[A-Za-z0-9/_.-]*$/.test(agentDeviceAuthPage)) {
    throw new ConfigError(
      "AGENT_DEVICE_AUTH_PAGE",
      `must be a path starting with / (got "${agentDeviceAuthPage}")`,
    );
  }

  const replica = replicaConfig(env);

  const logLevel = (read(env, "LOG_LEVEL") ?? "info").toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")} (got "${logLevel}")`);
  }

  return {
    port,
    host,
    dataDir: resolve(read(env, "DATA_DIR") ?? "data"),
    baseUrl,
    apiPublicUrl,
    platformDomain: platformDomain(env, production),
    checkoutUrl: origin(env, "CHECKOUT_URL") ?? apiPublicUrl,
    checkoutApiSecret,
    metricsToken,
    nodeToken,
    replica,
    directory: directoryConfig(env, replica),
    integrationEncryptionKey: encryptionKey(env, production),
    payments: paymentsConfig(env),
    agentProxyApiKey: proxyKey(env),
    agentDeviceAuthPage,
    trustProxy: boolean(env, "TRUST_PROXY", false),
    logLevel: logLevel as LogLevel,
    tenantPoolSize: integer(env, "TENANT_POOL_SIZE", 128, 1, 100_000),
    maxBodyBytes: integer(env, "MAX_BODY_BYTES", 1_048_576, 1024, 64 * 1_048_576),
    mediaMaxShopBytes: integer(env, "MEDIA_MAX_SHOP_BYTES", 200 * 1_048_576, 0, 2 ** 40),
    minFreeDiskMb: integer(env, "MIN_FREE_DISK_MB", 256, 0, 1_048_576),
    outboxLeaseMs: integer(env, "OUTBOX_LEASE_MS", 60_000, 100, 3_600_000),
    demoTenant: boolean(env, "DEMO_TENANT", !production),
    allowSignup: boolean(env, "ALLOW_SIGNUP", !production),
    authLimits: authLimits(env),
    mail: mailConfig(env),
    webhooks: webhooksConfig(env, production),
    production,
  };
}
