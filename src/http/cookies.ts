import type { AppContext } from "../app-context.ts";

/**
 * `Set-Cookie` for a session token: httpOnly, SameSite=Lax, whole site, and `Secure` when the
 * service is reached over https (BASE_URL, or the proxy's word with TRUST_PROXY=true).
 */
export function sessionCookie(
  ctx: { app: AppContext; request: Request },
  name: string,
  token: string,
  maxAgeSeconds: number,
): string {
  const forwardedHttps =
    ctx.app.config.trustProxy && ctx.request.headers.get("x-forwarded-proto")?.toLowerCase() === "https";
  const secure = ctx.app.config.baseUrl.startsWith("https:") || forwardedHttps ? "; Secure" : "";
  return `${name}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}
