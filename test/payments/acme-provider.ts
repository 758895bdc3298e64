import { createHmac, timingSafeEqual } from "node:crypto";
import { attemptByRef } from "../../src/payments/attempts.ts";
import { pattern } from "../../src/payments/fields.ts";
import { type PaymentProvider, sha256, signatureInvalid } from "../../src/payments/provider.ts";

// A payment provider that is not part of the service, written as a new one would be: this file
// alone (a `PaymentProvider`), registered with one call. Acme takes cards on its own page, signs
// its notifications with an HMAC of the body, and refunds at once. It calls no server: its payment
// page and refunds are answered here, which is all the service asks of a provider.

const sign = (secret: string, body: Uint8Array | string) =>
  createHmac("sha256", secret).update(body).digest("hex");

/** A notification Acme would send: `{id, payment, status, amount, currency}` signed with the store's webhook secret. */
export function acmeNotification(secret: string, payment: string, amount: number) {
  const body = JSON.stringify({ id: `evt_${payment}`, payment, status: "paid", amount, currency: "EUR" });
  return { body, signature: sign(secret, body) };
}

export const acmeProvider: PaymentProvider = {
  name: "acme",
  label: "Acme",
  methods: ["card"],
  fields: [
    { name: "apiKey", secret: true, check: pattern(/^acme_[a-z0-9]{8,}$/, "an Acme key (acme_…)") },
    { name: "webhookSecret", secret: true, check: pattern(/^.{16,}$/, "16 characters or more") },
  ],
  needs: { webhooks: ["webhookSecret"], card: ["apiKey"], refunds: ["apiKey"] },
  plan: ({ now }) => ({ expiresAt: now + 3600_000 }),
  start: async ({ attempt }) => ({
    providerRef: `acme_${attempt.id}`,
    instructions: { url: `https://pay.acme.test/${attempt.id}` },
  }),
  refund: async ({ refund }) => ({ providerRefundId: `acme_refund_${refund.id}`, status: "succeeded" }),
  verifyNotification(d, credentials) {
    const given = d.headers.get("acme-signature") ?? "";
    if (!/^[0-9a-f]{64}$/.test(given)) throw signatureInvalid();
    const creds = credentials();
    const expected = sign(String(creds.fields.webhookSecret), d.body);
    if (!timingSafeEqual(Buffer.from(given, "hex"), Buffer.from(expected, "hex"))) throw signatureInvalid();
    return creds;
  },
  parseNotification(_ctx, org, creds, d) {
    const event = JSON.parse(Buffer.from(d.body).toString("utf8")) as {
      id: string;
      payment: string;
      amount: number;
      currency: string;
    };
    return {
      kind: "notification",
      org,
      notification: {
        provider: "acme",
        eventId: event.id,
        kind: "payment.paid",
        payloadSha256: sha256(d.body),
        source: creds.source,
        find: (tenant) => attemptByRef(tenant, "acme", event.payment),
        outcome: { kind: "SUCCEEDED", amount: event.amount, currency: event.currency },
      },
    };
  },
};
