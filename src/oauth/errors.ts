import { ProtocolError } from "../agents/errors.ts";

/**
 * An OAuth error answer (RFC 6749 §5.2): `{ "error": "<code>", "error_description": "…" }`. A
 * ProtocolError, so the agents module's JSON routes render it.
 */
export class OAuthError extends ProtocolError {
  override toBody(): Record<string, unknown> {
    return { error: this.error, error_description: this.message };
  }
}

export const invalidRequest = (message: string) => new OAuthError(400, "invalid_request", message);
export const invalidGrant = (message: string) => new OAuthError(400, "invalid_grant", message);
export const invalidClient = (message: string) => new OAuthError(401, "invalid_client", message);
export const invalidClientMetadata = (message: string) =>
  new OAuthError(400, "invalid_client_metadata", message);
export const invalidRedirectUri = (message: string) => new OAuthError(400, "invalid_redirect_uri", message);
