import { inspectImage } from "../media/images.ts";
import { fetchDocument } from "../webhooks/outbound.ts";
import type { OAuthRuntime } from "./runtime.ts";

// A client's logo on the consent page: fetched by the service (under the outbound rules of
// webhooks: https, never an internal address, no redirects, 64 KiB, 3 s), shown only when its bytes
// are an image, and inlined as a data URL, so that the page still loads nothing from another
// origin and the client never learns who looked at it. Kept an hour, a failure too.

const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 3_000;
const KEEP_MS = 3600_000;
const MAX_KEPT = 500;

/** Per running service: what each logo URL gave. */
const keptBy = new WeakMap<OAuthRuntime, Map<string, { dataUrl: string | null; until: number }>>();

async function fetchLogo(rt: OAuthRuntime, url: string): Promise<string | null> {
  try {
    const answer = await fetchDocument({
      url,
      accept: "image/*",
      timeoutMs: TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      policy: rt.policy,
    });
    const image = answer.status === 200 ? inspectImage(answer.body) : undefined;
    return image ? `data:${image.contentType};base64,${answer.body.toString("base64")}` : null;
  } catch {
    return null; // unreachable, refused, too large: no logo, the name says who it is
  }
}

/** The logo at `url` as a data URL, or null when there is none to show. */
export async function clientLogo(rt: OAuthRuntime, url: string | null): Promise<string | null> {
  if (!url) return null;
  let kept = keptBy.get(rt);
  if (!kept) {
    kept = new Map();
    keptBy.set(rt, kept);
  }
  const now = Date.now();
  const found = kept.get(url);
  if (found && found.until > now) return found.dataUrl;
  const dataUrl = await fetchLogo(rt, url);
  if (kept.size >= MAX_KEPT) kept.clear();
  kept.set(url, { dataUrl, until: now + KEEP_MS });
  return dataUrl;
}
