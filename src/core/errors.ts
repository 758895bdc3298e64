/** Machine codes of the error body, with the HTTP status each one always carries. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  /** A password reset or invitation token that is unknown, used, expired, revoked or another shop's. */
  TOKEN_INVALID: 400,
  UNAUTHORIZED: 401,
  WEBHOOK_SIGNATURE_INVALID: 401,
  FORBIDDEN: 403,
  /** Dashboard sign-up while the operator keeps it closed (ALLOW_SIGNUP, off in production). */
  SIGNUP_DISABLED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  INSUFFICIENT_STOCK: 409,
  IDEMPOTENCY_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  COUPON_INVALID: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /** Payment webhooks while CHECKOUT_API_SECRET is unset (they fail closed). */
  WEBHOOKS_DISABLED: 503,
  /** No usable payment-provider credentials for the task. */
  PROVIDER_NOT_CONFIGURED: 503,
  /** A payment provider's API could not be reached (sent with Retry-After). */
  UPSTREAM_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

interface ErrorBody {
  error: string;
  code: string;
  status: number;
  details?: ErrorDetail[];
}

/** The one error type of the service: thrown anywhere, rendered once by the HTTP layer. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: this.message, code: this.code, status: this.status };
    if (this.details?.length) body.details = this.details;
    return body;
  }
}

export const notFound = (what: string) => new ApiError("NOT_FOUND", `${what} not found`);
