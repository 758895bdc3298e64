// The floor of bench/events-out.ts's deliveries: FLOOR_COUNT signed POSTs of the body in FLOOR_BODY
// (a file) to FLOOR_URL, one after another, each signed with `standardwebhooks` under FLOOR_SECRET and
// sent on a fresh node:http connection (as the service sends each attempt). Prints {ms, failed}.
import { readFileSync } from "node:fs";
import http from "node:http";
import { Webhook } from "standardwebhooks";

const url = new URL(process.env.FLOOR_URL!);
const count = Number(process.env.FLOOR_COUNT);
const secret = process.env.FLOOR_SECRET!;
const body = readFileSync(process.env.FLOOR_BODY!, "utf8");

function post(n: number): Promise<number> {
  const msgId = `msg_floor_${n}`;
  const now = new Date();
  const headers = {
    "content-type": "application/json",
    "webhook-id": msgId,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(msgId, now, body),
    "content-length": Buffer.byteLength(body),
  };
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: Number(url.port),
        path: url.pathname,
        method: "POST",
        headers,
        agent: false,
      },
      (response) => {
        response.on("data", () => {});
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

let failed = 0;
const started = performance.now();
for (let n = 0; n < count; n++) {
  const status = await post(n);
  if (status < 200 || status >= 300) failed++;
}
console.log(JSON.stringify({ ms: performance.now() - started, failed }));
