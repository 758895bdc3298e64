import { ApiError, type ErrorDetail } from "../core/errors.ts";

/**
 * An Agent Auth protocol error: `{ "error": "<snake_code>", "message": "…" }` plus extra members,
 * the shape of every `/api/auth/*` refusal (the `/v1` envelope is `{error, code, status}` instead).
 */
export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  toBody(): Record<string, unknown> {
    return { error: this.error, message: this.message, ...this.extra };
  }
}

export const invalidJwt = (message: string) => new ProtocolError(401, "invalid_jwt", message);
export const invalidRequest = (message: string, extra?: Record<string, unknown>) =>
  new ProtocolError(400, "invalid_request", message, extra);
export const conflict = (message = "The state changed meanwhile; reload and try again") =>
  new ProtocolError(409, "conflict", message);

/** One broken constraint of a grant, as execute reports it (`violations`) and `/v1` words it (`details`). */
export interface Violation {
  field: string;
  constraint: string;
  actual: unknown;
  /** `/body/amount`, `/query/limit`, `/params/id`. */
  path: string;
}

/**
 * A grant's constraint refused the call: on `/v1` and `/mcp` a 403 `FORBIDDEN` with one detail per
 * violation; capability execute answers the protocol's `constraint_violated` with `violations`.
 */
export class ConstraintViolation extends ApiError {
  constructor(
    readonly capability: string,
    readonly violations: Violation[],
  ) {
    const details: ErrorDetail[] = violations.map((v) => ({
      path: v.path,
      message: `constraint_violated: ${v.constraint}`,
    }));
    super("FORBIDDEN", `The call breaks a constraint of the grant for ${capability}`, details);
  }
}

/** The agent holds no effective grant for the operation (403 `FORBIDDEN` on `/v1` and `/mcp`). */
export const notGranted = (capability: string) =>
  new ApiError("FORBIDDEN", `The agent holds no grant for ${capability}`, [
    { path: "/capability", message: `capability_not_granted: ${capability}` },
  ]);
