import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from "jose";
import { agentRuntime } from "../../src/agents/runtime.ts";
import { createApiKey } from "../../src/auth/service.ts";
import { RateLimiter } from "../../src/core/rate-limit.ts";
import type { TestApp } from "../helpers/app.ts";
import { jsonBody, signUp } from "../helpers/app.ts";

// Real Ed25519 keys made by jose and real signed JWTs, as an agent builder would make them.

export const BASE = "http://localhost:3000"; // BASE_URL of a test app (PORT defaults to 3000)
export const ISSUER = `${BASE}/api/auth`;
export const LOCATION = `${ISSUER}/capability/execute`;

export interface KeyPair {
  jwk: { kty: string; crv: string; x: string };
  privateKey: CryptoKey;
  thumbprint: string;
}

export async function newKeyPair(): Promise<KeyPair> {
  const { publicKey, privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
  const { kty, crv, x } = await exportJWK(publicKey);
  const jwk = { kty: kty!, crv: crv!, x: x! };
  return { jwk, privateKey, thumbprint: await calculateJwkThumbprint(jwk) };
}

export interface SignOptions {
  typ?: string;
  aud?: string | string[];
  iat?: number;
  exp?: number;
  jti?: string;
}

/** A compact JWS signed with EdDSA (fresh `jti`, 60 s of life unless told otherwise). */
export async function sign(
  key: CryptoKey,
  claims: JWTPayload,
  options: SignOptions & { typ: string },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const iat = options.iat ?? now;
  return new SignJWT({ ...claims, jti: options.jti ?? crypto.randomUUID() })
    .setProtectedHeader({ alg: "EdDSA", typ: options.typ })
    .setIssuedAt(iat)
    .setExpirationTime(options.exp ?? iat + 60)
    .setAudience(options.aud ?? ISSUER)
    .sign(key);
}

/** Lifts the per-IP registration limit (every test request comes from one address). */
export function relaxRegisterLimit(t: TestApp): void {
  agentRuntime(t.app.ctx)!.limits.registerIp = new RateLimiter(10_000, 60_000);
}

/** A request carrying a bearer JWT and, when there is a body, that body as JSON. */
function bearerInit(
  token: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): RequestInit {
  return {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
}

export class TestHost {
  constructor(
    readonly t: TestApp,
    readonly key: KeyPair,
    /** The issuer its JWTs are for (`aud`): `BASE_URL/api/auth` of the app under test. */
    readonly issuer: string = ISSUER,
  ) {}

  static async create(t: TestApp, issuer: string = ISSUER): Promise<TestHost> {
    return new TestHost(t, await newKeyPair(), issuer);
  }

  jwt(claims: JWTPayload = {}, options: SignOptions = {}): Promise<string> {
    return sign(
      this.key.privateKey,
      { iss: this.key.thumbprint, ...claims },
      { typ: "host+jwt", aud: this.issuer, ...options },
    );
  }

  async call(method: string, path: string, body?: unknown, claims: JWTPayload = {}) {
    return this.t.json(`/api/auth${path}`, bearerInit(await this.jwt(claims), method, body));
  }

  /** Registers a new agent with a fresh key (the host's own key is sent too). */
  async register(body: Record<string, unknown> = { name: "Shopping agent" }, agentKey?: KeyPair) {
    const key = agentKey ?? (await newKeyPair());
    const res = await this.call("POST", "/agent/register", body, {
      host_public_key: this.key.jwk,
      agent_public_key: key.jwk,
    });
    return {
      ...res,
      agent: res.body?.agent_id ? new TestAgent(this.t, this, res.body.agent_id, key) : undefined,
    };
  }

  poll(deviceCode: string) {
    return this.call("POST", "/agent/token", {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: deviceCode,
    });
  }
}

export class TestAgent {
  constructor(
    readonly t: TestApp,
    readonly host: TestHost,
    readonly id: string,
    public key: KeyPair,
  ) {}

  jwt(aud: string | string[] = BASE, claims: JWTPayload = {}, options: SignOptions = {}): Promise<string> {
    return sign(
      this.key.privateKey,
      { iss: this.host.key.thumbprint, sub: this.id, ...claims },
      { typ: "agent+jwt", aud, ...options },
    );
  }

  /** A `/v1` request with a freshly signed token (`aud` = the API origin). */
  async v1(path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    return this.t.json(path, bearerInit(await this.jwt(BASE), init.method ?? "GET", init.body, init.headers));
  }

  /** `POST /api/auth/capability/execute` (`aud` = the default location). */
  async execute(
    capability: string,
    args: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    return this.t.json(
      "/api/auth/capability/execute",
      bearerInit(await this.jwt(LOCATION), "POST", { capability, arguments: args }, headers),
    );
  }

  /** An `/api/auth/*` call with an agent JWT (`aud` = the issuer). */
  async auth(method: string, path: string, body?: unknown) {
    return this.t.json(`/api/auth${path}`, bearerInit(await this.jwt(ISSUER), method, body));
  }
}

/** A merchant: a dashboard user owning a fresh organization, with an admin API key for setup. */
export interface Merchant {
  cookie: string;
  userId: string;
  orgId: string;
  apiKey: string;
}

export async function newMerchant(t: TestApp, email: string, orgName = "Shop"): Promise<Merchant> {
  const cookie = await signUp(t, email);
  const created = await t.json("/api/auth/organization/create", jsonBody({ name: orgName }, { cookie }));
  if (created.status !== 201) throw new Error(`org create failed ${JSON.stringify(created.body)}`);
  const session = await t.json("/api/auth/session", { headers: { cookie } });
  const key = createApiKey(t.app.ctx.platform, {
    organizationId: created.body.data.id,
    name: "setup",
    scopes: ["admin", "storefront"],
  });
  return { cookie, userId: session.body.data.user.id, orgId: created.body.data.id, apiKey: key.key };
}

/** Approves a request as a signed-in dashboard user through the JSON endpoint, with the user code. */
export function approve(
  t: TestApp,
  merchant: Pick<Merchant, "cookie"> & { orgId?: string },
  approval: { approval_id: string; user_code: string },
  extra: Record<string, unknown> = {},
) {
  return t.json(
    "/api/auth/agent/approve",
    jsonBody(
      {
        approval_id: approval.approval_id,
        user_code: approval.user_code,
        ...(merchant.orgId ? { organization_id: merchant.orgId } : {}),
        ...extra,
      },
      { cookie: merchant.cookie },
    ),
  );
}

export function deny(
  t: TestApp,
  merchant: Pick<Merchant, "cookie">,
  approval: { approval_id: string; user_code: string },
  extra: Record<string, unknown> = {},
) {
  return t.json(
    "/api/auth/agent/deny",
    jsonBody(
      { approval_id: approval.approval_id, user_code: approval.user_code, ...extra },
      { cookie: merchant.cookie },
    ),
  );
}

/** Registers an agent and has the merchant approve all it asked for: an active, bound agent. */
export async function activeAgent(
  t: TestApp,
  merchant: Merchant,
  body: Record<string, unknown> = { name: "Shopping agent" },
  host?: TestHost,
): Promise<TestAgent> {
  const h = host ?? (await TestHost.create(t));
  const reg = await h.register(body);
  if (reg.status !== 201 && reg.status !== 200)
    throw new Error(`register failed ${JSON.stringify(reg.body)}`);
  if (reg.body.approval) {
    const decided = await approve(t, merchant, reg.body.approval);
    if (decided.status !== 200) throw new Error(`approve failed ${JSON.stringify(decided.body)}`);
  }
  return reg.agent!;
}
