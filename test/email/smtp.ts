import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

// A real SMTP server for the mailer's tests (smtp-server on a free port), and just enough MIME
// reading to check what arrived: headers (RFC 2047 words decoded) and the text and HTML parts
// (quoted-printable or base64 decoded).

export interface Received {
  from: string;
  to: string[];
  raw: string;
  /** Header names lower-cased, folded lines joined, encoded words decoded. */
  headers: Record<string, string>;
  text: string;
  html: string;
}

export interface TestSmtpServer {
  port: number;
  received: Received[];
  /** Logins the server accepted, as `user:pass`. */
  logins: string[];
  close(): Promise<void>;
}

/** Recipients whose RCPT TO the server answers with 550. */
export const REFUSED_RECIPIENT = /@refused\.example$/;

/** On `port` when given (a port a test reserved), else on one of the kernel's choosing. */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: Received[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password}`);
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (!REFUSED_RECIPIENT.test(address.address)) return callback();
      callback(Object.assign(new Error("No such user here"), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const envelope = session.envelope;
        const mailFrom = envelope.mailFrom === false ? "" : envelope.mailFrom.address;
        const to = envelope.rcptTo.map((r) => r.address);
        received.push({ from: mailFrom, to, ...parseMessage(Buffer.concat(chunks).toString("utf8")) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    logins,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, kind: string, data: string) =>
      kind.toLowerCase() === "b"
        ? Buffer.from(data, "base64").toString("utf8")
        : decodeQuotedPrintable(data.replace(/_/g, " ")),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

function splitHeaders(raw: string): { headers: Record<string, string>; body: string } {
  const end = raw.indexOf("\r\n\r\n");
  const headers: Record<string, string> = {};
  for (const line of raw
    .slice(0, end)
    .replace(/\r\n[ \t]+/g, " ")
    .split("\r\n")) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body: raw.slice(end + 4) };
}

function decodePart(part: string): { type: string; content: string } {
  const { headers, body } = splitHeaders(part);
  const encoding = headers["content-transfer-encoding"]?.toLowerCase();
  const content =
    encoding === "base64"
      ? Buffer.from(body, "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? decodeQuotedPrintable(body)
        : body;
  return { type: headers["content-type"]?.split(";")[0]?.toLowerCase() ?? "text/plain", content };
}

export function parseMessage(raw: string): Omit<Received, "from" | "to"> {
  const { headers, body } = splitHeaders(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers["content-type"] ?? "")?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        // The line break before a boundary belongs to the boundary, not to the part.
        .map((part) => decodePart(part.replace(/^\r\n/, "").replace(/\r\n$/, "")))
    : [decodePart(raw)];
  const find = (type: string) => parts.find((part) => part.type === type)?.content ?? "";
  return { raw, headers, text: find("text/plain"), html: find("text/html") };
}
