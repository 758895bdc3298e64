import { describe, expect, test } from "bun:test";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { newSigningSecret, signatureHeaders } from "../../src/webhooks/signing.ts";

const body = JSON.stringify({ type: "order.paid", data: { id: "ord_1", total: 4900 } });

describe("signing secrets", () => {
  test("a new secret is whsec_ and the base64 of 32 random bytes, and the standardwebhooks library takes it", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(() => new Webhook(secret)).not.toThrow();
    expect(newSigningSecret()).not.toBe(secret);
  });
});

describe("signature headers", () => {
  test("a receiver verifies a delivery with the standardwebhooks library and its secret", () => {
    const secret = newSigningSecret();
    const now = Date.now();
    const headers = signatureHeaders({ secrets: [secret], msgId: "msg_1", timestamp: now, body });
    expect(headers["webhook-id"]).toBe("msg_1");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now / 1000)));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  test("during a rotation every secret signs, space-separated, and a receiver holding either one verifies", () => {
    const [previous, next] = [newSigningSecret(), newSigningSecret()];
    const headers = signatureHeaders({
      secrets: [previous, next],
      msgId: "msg_2",
      timestamp: Date.now(),
      body,
    });
    const signatures = headers["webhook-signature"].split(" ");
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => signature.startsWith("v1,"))).toBe(true);
    expect(signatures[0]).not.toBe(signatures[1]);
    for (const secret of [previous, next]) {
      expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    }
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow(
      WebhookVerificationError,
    );
  });

  test("a changed body, id or timestamp no longer verifies", () => {
    const secret = newSigningSecret();
    const now = Date.now();
    const headers = signatureHeaders({ secrets: [secret], msgId: "msg_3", timestamp: now, body });
    const receiver = new Webhook(secret);
    expect(() => receiver.verify(body.replace("4900", "1"), { ...headers })).toThrow(
      WebhookVerificationError,
    );
    expect(() => receiver.verify(body, { ...headers, "webhook-id": "msg_4" })).toThrow(
      WebhookVerificationError,
    );
    const later = String(Math.floor(now / 1000) + 1);
    expect(() => receiver.verify(body, { ...headers, "webhook-timestamp": later })).toThrow(
      WebhookVerificationError,
    );
  });

  test("signing with no secret is a programming error, not an unsigned delivery", () => {
    expect(() => signatureHeaders({ secrets: [], msgId: "msg_5", timestamp: Date.now(), body })).toThrow(
      "at least one secret",
    );
  });
});
