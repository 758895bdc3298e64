import type { AppContext } from "../app-context.ts";
import { EndpointRefused } from "../webhooks/endpoint-url.ts";
import { fetchDocument } from "../webhooks/outbound.ts";
import { type Json, UcpError } from "./errors.ts";
import { CHECKOUT, UCP_VERSION } from "./wire.ts";

// The platform profiles `UCP-Agent` names, fetched as UCP asks (no redirects) under the outbound
// rules of webhooks (https, never an internal address, 64 KiB, 5 s) and kept 5 minutes. A profile
// that cannot be fetched is UCP's 424 `profile_unreachable`; one that is not a UCP profile, or
// that offers no checkout this service speaks (or whose `signing_keys` are not keys), is 422
// `profile_malformed` / `version_unsupported`.

const KEEP_MS = 5 * 60_000;
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5_000;
const MAX_KEPT = 1_000;
const VERSION = /^\d{4}-\d{2}-\d{2}$/;

const obj = (value: unknown): Json =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};

/** What a platform's profile must say for this service to check out with it. */
function checkProfile(profile: Json): void {
  const ucp = obj(profile.ucp);
  if (typeof ucp.version !== "string" || !VERSION.test(ucp.version)) {
    throw new UcpError(422, "profile_malformed", "The platform's profile names no UCP version");
  }
  const checkout = obj(ucp.capabilities)[CHECKOUT];
  if (!Array.isArray(checkout)) {
    throw new UcpError(422, "profile_malformed", `The platform's profile offers no ${CHECKOUT} capability`);
  }
  // The versions both sides speak: this service speaks one.
  const versions = checkout.map((c) => obj(c).version);
  if (!versions.includes(UCP_VERSION)) {
    throw new UcpError(422, "version_unsupported", `This business speaks UCP ${UCP_VERSION} only`);
  }
  checkSigningKeys(profile.signing_keys);
}

/**
 * The keys its request signatures are verified with (verify.ts): when the profile has
 * `signing_keys`, a list of JWKs each with a `kid`. Which curves are taken is the verifier's to
 * say, per signature (`algorithm_unsupported`), so a profile that also lists other keys still works.
 */
function checkSigningKeys(keys: unknown): void {
  if (keys === undefined) return;
  if (
    !Array.isArray(keys) ||
    !keys.every((key) => typeof obj(key).kid === "string" && typeof obj(key).kty === "string")
  ) {
    throw new UcpError(
      422,
      "profile_malformed",
      "The platform's profile's signing_keys is not a list of JWKs with a kid",
    );
  }
}

class PlatformProfiles {
  private readonly kept = new Map<string, { profile: Json; until: number }>();

  constructor(private readonly ctx: AppContext) {}

  /** The checked profile at `url`: kept, or fetched now. */
  async get(url: string): Promise<Json> {
    const now = Date.now();
    const kept = this.kept.get(url);
    if (kept && kept.until > now) return kept.profile;
    const profile = await this.fetch(url);
    checkProfile(profile);
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    this.kept.set(url, { profile, until: now + KEEP_MS });
    return profile;
  }

  private async fetch(url: string): Promise<Json> {
    let text: string;
    try {
      const answer = await fetchDocument({
        url,
        accept: "application/json",
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_BYTES,
        policy: { allowHttpLocalhost: this.ctx.config.webhooks.allowHttpLocalhost },
      });
      if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
      text = answer.body.toString("utf8");
    } catch (error) {
      const why = error instanceof EndpointRefused ? `url ${error.message}` : (error as Error).message;
      throw new UcpError(424, "profile_unreachable", `The platform's profile could not be fetched: ${why}`);
    }
    try {
      return obj(JSON.parse(text));
    } catch {
      throw new UcpError(422, "profile_malformed", "The platform's profile is not JSON");
    }
  }
}

const profiles = new WeakMap<AppContext, PlatformProfiles>();

/** The platform profiles of a running service. */
export function platformProfiles(ctx: AppContext): PlatformProfiles {
  let kept = profiles.get(ctx);
  if (!kept) {
    kept = new PlatformProfiles(ctx);
    profiles.set(ctx, kept);
  }
  return kept;
}
