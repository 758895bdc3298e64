import { afterEach, describe, expect, test } from "bun:test";
import { Webhook } from "standardwebhooks";
import { checkEndpointUrl, type EndpointPolicy } from "../../src/webhooks/endpoint-url.ts";
import { deliverWebhook, MAX_ANSWER_BYTES } from "../../src/webhooks/outbound.ts";
import { newSigningSecret, signatureHeaders } from "../../src/webhooks/signing.ts";
import { type Receiver, selfSignedCertificate, startReceiver } from "./receivers.ts";

const body = JSON.stringify({ type: "order.paid", data: { id: "ord_1" } });
const unsigned = { "webhook-id": "msg_1", "webhook-timestamp": "0", "webhook-signature": "v1,x" };

const DEV = { allowHttpLocalhost: true } satisfies EndpointPolicy;
const PROD = { allowHttpLocalhost: false } satisfies EndpointPolicy;

const open: Receiver[] = [];
async function receiver(options: Parameters<typeof startReceiver>[0] = {}): Promise<Receiver> {
  const started = await startReceiver(options);
  open.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

/** One attempt of `body` to `url`. */
const send = (
  url: string,
  policy: EndpointPolicy,
  more: { timeoutMs?: number; headers?: Record<string, string> } = {},
) =>
  deliverWebhook({
    url,
    headers: more.headers ?? unsigned,
    body,
    policy,
    ...(more.timeoutMs ? { timeoutMs: more.timeoutMs } : {}),
  });

/** A resolver answering each call with the next of `answers` (the last one repeated), recording the names asked. */
function resolver(...answers: string[][]) {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    return answers[Math.min(calls.length, answers.length) - 1]!;
  };
  return { calls, resolve };
}

describe("delivery over http (development)", () => {
  test("a delivery is one signed POST that the receiver verifies with the standardwebhooks library", async () => {
    const hooks = await receiver();
    const [previous, next] = [newSigningSecret(), newSigningSecret()];
    const headers = signatureHeaders({
      secrets: [previous, next],
      msgId: "msg_1",
      timestamp: Date.now(),
      body,
    });
    const result = await send(`http://localhost:${hooks.port}/hooks?shop=1`, DEV, { headers });
    expect(result).toEqual({ status: 204, durationMs: expect.any(Number), error: null });
    expect(hooks.requests).toHaveLength(1);
    const [request] = hooks.requests;
    expect(request).toMatchObject({ method: "POST", url: "/hooks?shop=1", body });
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers.host).toBe(`localhost:${hooks.port}`);
    for (const secret of [previous, next]) {
      expect(new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>)).toEqual(
        JSON.parse(body),
      );
    }
  });

  test("http://localhost is refused in production before any connection is made", async () => {
    const hooks = await receiver();
    const result = await send(`http://localhost:${hooks.port}/`, PROD);
    expect(result).toEqual({ status: null, durationMs: expect.any(Number), error: "url must use https" });
    expect(hooks.connections).toBe(0);
  });

  test("http://[::1] reaches an IPv6 loopback receiver in development", async () => {
    const hooks = await receiver({ host: "::1" });
    const result = await send(`http://[::1]:${hooks.port}/in`, DEV);
    expect(result.error).toBeNull();
    expect(hooks.requests.map((r) => r.headers.host)).toEqual([`[::1]:${hooks.port}`]);
  });

  test("a non-2xx answer is a failed attempt that keeps its status", async () => {
    const hooks = await receiver({
      answer: (_request, response) => void response.writeHead(500).end("down"),
    });
    const result = await send(`http://127.0.0.1:${hooks.port}/`, DEV);
    expect(result).toEqual({ status: 500, durationMs: expect.any(Number), error: "HTTP 500" });
  });

  test("a redirect is not followed: the attempt fails with the 3xx and the target sees nothing", async () => {
    const target = await receiver();
    const hooks = await receiver({
      answer: (_request, response) =>
        void response.writeHead(307, { location: `http://localhost:${target.port}/elsewhere` }).end(),
    });
    const result = await send(`http://localhost:${hooks.port}/`, DEV);
    expect(result).toEqual({
      status: 307,
      durationMs: expect.any(Number),
      error: "redirect not followed (HTTP 307)",
    });
    expect(hooks.requests).toHaveLength(1);
    expect(target.connections).toBe(0);
  });

  test("a slow receiver hits the timeout: error 'timeout', no status, after about timeoutMs", async () => {
    const hooks = await receiver({
      answer: async (_request, response) => {
        await Bun.sleep(3000);
        if (!response.destroyed) response.writeHead(204).end();
      },
    });
    const result = await send(`http://localhost:${hooks.port}/`, DEV, { timeoutMs: 300 });
    expect(result).toMatchObject({ status: null, error: "timeout" });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2000);
    expect(hooks.requests).toHaveLength(1);
  });

  test("a resolver that never answers hits the same timeout", async () => {
    const hang = () => new Promise<string[]>(() => {});
    const result = await send("https://hooks.example.com/", { ...PROD, resolve: hang }, { timeoutMs: 200 });
    expect(result).toMatchObject({ status: null, error: "timeout" });
  });

  test("at most 64 KB of the answer is read: a receiver streaming 256 MB is cut off", async () => {
    const total = 256 * 1024 * 1024;
    let written = 0;
    const hooks = await receiver({
      answer: async (_request, response) => {
        response.writeHead(200, { "content-type": "application/octet-stream" });
        const chunk = Buffer.alloc(1024 * 1024, 120);
        while (written < total && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) {
            await Promise.race([
              new Promise((resolve) => response.once("drain", resolve)),
              new Promise((resolve) => response.once("close", resolve)),
            ]);
          }
        }
        if (!response.destroyed) response.end();
      },
    });
    const result = await send(`http://localhost:${hooks.port}/`, DEV);
    expect(result).toMatchObject({ status: 200, error: null });
    await Bun.sleep(100);
    expect(MAX_ANSWER_BYTES).toBe(65536);
    expect(written).toBeLessThan(32 * 1024 * 1024); // what the sockets' buffers took, not the 256 MB
  });

  test("a network failure is returned as the attempt's error, never thrown", async () => {
    const hooks = await receiver();
    await hooks.close();
    const result = await send(`http://127.0.0.1:${hooks.port}/`, DEV);
    expect(result).toMatchObject({ status: null, error: expect.stringContaining("ECONNREFUSED") });
  });
});

describe("the address delivered to is the address checked", () => {
  test("DNS rebinding: a name public when saved and loopback at delivery is refused without a connection", async () => {
    const hooks = await receiver();
    const { calls, resolve } = resolver(["93.184.215.14"], ["127.0.0.1"]);
    const policy = { ...PROD, resolve };
    const url = `https://hooks.example.com:${hooks.port}/in`;
    await checkEndpointUrl(url, policy);
    const result = await send(url, policy);
    expect(result).toEqual({
      status: null,
      durationMs: expect.any(Number),
      error: "url points to an internal address (127.0.0.1)",
    });
    expect(calls).toEqual(["hooks.example.com", "hooks.example.com"]);
    expect(hooks.connections).toBe(0);
  });

  test("every resolved address is checked: one internal among them refuses the delivery", async () => {
    const hooks = await receiver();
    const { resolve } = resolver(["127.0.0.1", "169.254.169.254"]);
    const result = await send(`http://localhost:${hooks.port}/`, { ...DEV, resolve });
    expect(result.error).toBe("url points to an internal address (169.254.169.254)");
    expect(hooks.connections).toBe(0);
  });

  test("the connection goes to the resolved address, never to a second lookup of the name", async () => {
    const hooks = await receiver(); // on 127.0.0.1, where the system resolves localhost
    const { calls, resolve } = resolver(["127.0.0.2"]);
    const result = await send(`http://localhost:${hooks.port}/`, { ...DEV, resolve });
    expect(result).toMatchObject({ status: null, error: `connect ECONNREFUSED 127.0.0.2:${hooks.port}` });
    expect(calls).toEqual(["localhost"]);
    expect(hooks.connections).toBe(0);
  });
});

describe("delivery over https to a pinned address", () => {
  const certificate = selfSignedCertificate("receiver.test");

  /**
   * An attempt to `https://{name}:{port}/in` on a receiver holding the certificate for receiver.test.
   * No DNS knows these names: only the policy's resolver (127.0.0.1), so reaching one proves the pin.
   */
  async function sendOverTls(name: string, ca: string | undefined) {
    const hooks = await receiver({ tls: certificate });
    const policy = { ...DEV, resolve: async () => ["127.0.0.1"], ...(ca === undefined ? {} : { ca }) };
    return { hooks, result: await send(`https://${name}:${hooks.port}/in`, policy) };
  }

  test("TLS verifies the certificate for the name (SNI and Host are the name) while connecting to the checked address", async () => {
    const { hooks, result } = await sendOverTls("receiver.test", certificate.cert);
    expect(result).toEqual({ status: 204, durationMs: expect.any(Number), error: null });
    expect(hooks.serverNames).toEqual(["receiver.test"]);
    expect(hooks.requests.map((r) => [r.headers.host, r.body])).toEqual([
      [`receiver.test:${hooks.port}`, body],
    ]);
  });

  test("a certificate for another name fails the attempt", async () => {
    const { hooks, result } = await sendOverTls("other.test", certificate.cert);
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/other\.test.*not in the cert's altnames/);
    expect(hooks.requests).toHaveLength(0);
  });

  test("a certificate no trusted CA signed fails the attempt (verification is on by default)", async () => {
    const { hooks, result } = await sendOverTls("receiver.test", undefined);
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/self[- ]signed|unable to verify/i);
    expect(hooks.requests).toHaveLength(0);
  });
});
