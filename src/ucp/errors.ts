// What UCP answers with besides a checkout.

export type Json = Record<string, unknown>;

/** A protocol error (a non-2xx status with `{code, content}`; over MCP a JSON-RPC error). */
export class UcpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
