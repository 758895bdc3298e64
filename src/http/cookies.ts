import type { CookieToSet } from "../core/operation.ts";

/**
 * `Set-Cookie` for a session token: httpOnly, SameSite=Lax, whole site, and `Secure` when the
 * service is reached over https (BASE_URL, or the proxy's word with TRUST_PROXY=true).
 */
export function cookieHeader(cookie: CookieToSet, https: boolean): string {
  const secure = https ? "; Secure" : "";
  return `${cookie.name}=${cookie.value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${cookie.maxAgeSeconds}${secure}`;
}
