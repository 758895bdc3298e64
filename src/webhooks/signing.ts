import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** The three headers of a signed delivery (Standard Webhooks); a type, so it is also a `Record<string, string>`. */
export type SignatureHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes, the form receivers' libraries take. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * Signs one attempt of a delivery. `msgId` stays the same across the retries of one message (the
 * receiver's de-duplication key); `timestamp` (epoch milliseconds) is the attempt's, since receivers
 * refuse old timestamps. While a secret is rotated every secret in `secrets` signs, and the header
 * lists each signature separated by a space (`v1,… v1,…`), so a receiver holding either one verifies.
 */
export function signatureHeaders(input: {
  secrets: readonly string[];
  msgId: string;
  timestamp: number;
  body: string;
}): SignatureHeaders {
  const { secrets, msgId, timestamp, body } = input;
  if (secrets.length === 0) throw new Error("a webhook is signed with at least one secret");
  const at = new Date(timestamp);
  return {
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(timestamp / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(msgId, at, body)).join(" "),
  };
}
