// The receiving end of bench/events-out.ts: a bare Bun.serve that answers every webhook POST with
// 204 and notes when it arrived, and, with SMTP_PORT set, an SMTP sink (smtp-server) that accepts
// and counts every message. `GET /stats` answers what arrived, `POST /reset` forgets it.
import { SMTPServer } from "smtp-server";

let arrivals: number[] = [];
/** Arrival minus the event's `createdAt` (ms), when the body carries one. */
let lags: number[] = [];
let bodyBytes: number[] = [];
let first: { headers: Record<string, string>; body: string } | null = null;
let mails = 0;

const CREATED_AT = /"createdAt":"([^"]+)"/;

Bun.serve({
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT),
  async fetch(request) {
    const { pathname } = new URL(request.url);
    if (request.method === "POST" && pathname === "/hook") {
      const body = await request.text();
      const at = Date.now();
      arrivals.push(at);
      bodyBytes.push(Buffer.byteLength(body));
      const created = CREATED_AT.exec(body);
      if (created) lags.push(at - Date.parse(created[1]!));
      first ??= { headers: Object.fromEntries(request.headers), body };
      return new Response(null, { status: 204 });
    }
    if (pathname === "/stats") return Response.json({ arrivals, lags, bodyBytes, first, mails });
    if (request.method === "POST" && pathname === "/reset") {
      arrivals = [];
      lags = [];
      bodyBytes = [];
      first = null;
      mails = 0;
      return new Response(null, { status: 204 });
    }
    if (pathname === "/v1/health") return new Response("ok");
    return new Response(null, { status: 404 });
  },
});

if (process.env.SMTP_PORT) {
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        mails++;
        callback();
      });
    },
  });
  smtp.listen(Number(process.env.SMTP_PORT), "127.0.0.1");
}
