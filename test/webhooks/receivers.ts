import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";

// Real receivers for outbound webhooks: servers on port 0 that record every connection and request.

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Receiver {
  port: number;
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  /** The TLS server name (SNI) of each TLS connection. */
  serverNames: string[];
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

type Answer = (request: ReceivedRequest, response: ServerResponse) => void | Promise<void>;

const ok: Answer = (_request, response) => {
  response.writeHead(204).end();
};

/** An HTTP (or, given a key and certificate, HTTPS) receiver on `host`, answering with `answer` (204 by default). */
export async function startReceiver(
  options: { answer?: Answer; tls?: { key: string; cert: string }; host?: string } = {},
): Promise<Receiver> {
  const answer = options.answer ?? ok;
  const handle = (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request = {
        method: incoming.method ?? "",
        url: incoming.url ?? "",
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      receiver.requests.push(request);
      void answer(request, response);
    });
  };
  const server = options.tls ? https.createServer(options.tls, handle) : http.createServer(handle);
  server.on("connection", () => {
    receiver.connections++;
  });
  server.on("secureConnection", (socket: TLSSocket) => {
    receiver.serverNames.push(String(socket.servername));
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? "127.0.0.1", resolve));
  const receiver: Receiver = {
    port: (server.address() as AddressInfo).port,
    connections: 0,
    serverNames: [],
    requests: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** A self-signed certificate (its own CA) for `name`, made with openssl for this test run. */
export function selfSignedCertificate(name: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), "webhook-tls-"));
  try {
    const made = Bun.spawnSync(
      [
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        `/CN=${name}`,
        "-addext",
        `subjectAltName=DNS:${name}`,
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdout: "pipe", stderr: "pipe" },
    );
    if (!made.success) throw new Error(`openssl failed: ${made.stderr.toString()}`);
    return {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
