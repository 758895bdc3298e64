import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { waitForMail, waitForMessages } from "../helpers/mail.ts";
import type { Shop } from "../helpers/shop.ts";
import { IFTHENPAY, makeWorld, type PaymentsWorld, placeWith, providerShop } from "../payments/helpers.ts";
import { type Received, startSmtpServer, type TestSmtpServer } from "./smtp.ts";

// Emails sent by events (src/email/send.ts), through the outbox to a real SMTP server on a free
// port: what a shopper and the shop receive for a purchase, in the shop's language, with a link
// that opens the order.

let smtp: TestSmtpServer;
let w: PaymentsWorld;
let shop: Shop;

beforeAll(async () => {
  smtp = await startSmtpServer();
  w = makeWorld({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: "Shops <mail@shops.example>" });
  shop = await providerShop(
    w.t,
    "Casa do Linho",
    "linho.example",
    { provider: "ifthenpay", fields: IFTHENPAY },
    50,
  );
  await shop.admin.patch("/v1/admin/store", {
    defaultLocale: "pt",
    locales: ["pt", "en"],
    contactEmail: "loja@linho.example",
    orderPageUrl: "https://linho.example/encomenda",
  });
});
afterAll(async () => {
  w.close();
  await smtp.close();
});

describe("a Multibanco purchase sends the shopper and the shop what they need", () => {
  test("order confirmation in Portuguese with the number and total, the Multibanco reference to pay, and the shop's new-order notice; the order link opens the order", async () => {
    const placed = await placeWith(shop, "ifthenpay_multibanco");
    expect(placed.status).toBe(201);
    const order = placed.body.data;
    const total = `${(order.totals.total.amount / 100).toFixed(2).replace(".", ",")}`;

    const shopper = await waitForMail(smtp, "buyer@example.com", 2);
    const confirmation = shopper.find((m) => m.headers.subject!.startsWith("Encomenda"))!;
    expect(confirmation.headers.subject).toBe(`Encomenda n.º ${order.number} confirmada – Casa do Linho`);
    expect(confirmation.text).toContain(total);
    expect(confirmation.headers.from).toContain("Casa do Linho");
    expect(confirmation.headers["reply-to"]).toContain("loja@linho.example");

    const instructions = shopper.find((m) => m !== confirmation)!;
    expect(instructions.headers.subject).toBe(`Como pagar a encomenda n.º ${order.number}`);
    const reference = (await shop.admin.get(`/v1/admin/orders/${order.id}`)).body.data.payment.action;
    expect(instructions.text).toContain(reference.entity);
    expect(instructions.text.replace(/\s/g, "")).toContain(reference.reference);
    expect(instructions.text).toContain(total);

    const notice = await waitForMail(smtp, "loja@linho.example", 1);
    // Intl writes a no-break space before the euro sign.
    expect(notice[0]!.headers.subject!.replace(/\u00a0/g, " ")).toBe(
      `Nova encomenda n.º ${order.number} – ${total} €`,
    );

    // The link in the confirmation opens the order for whoever holds the email, and nothing else.
    const link = new URL(/https:\/\/linho\.example\/encomenda\?[^\s"<>]+/.exec(confirmation.text)![0]);
    expect(link.searchParams.get("order")).toBe(order.id);
    const token = link.searchParams.get("token")!;
    const read = await shop.storefront(`/v1/orders/${order.id}?token=${encodeURIComponent(token)}`);
    expect(read.status).toBe(200);
    const other = (await placeWith(shop, "ifthenpay_multibanco")).body.data;
    expect((await shop.storefront(`/v1/orders/${other.id}?token=${encodeURIComponent(token)}`)).status).toBe(
      404,
    );
  });

  test("payment instructions wait for a payment the provider is slow to open, then go out with its reference", async () => {
    const slow = await providerShop(
      w.t,
      "Linho Lento",
      "lento.example",
      { provider: "ifthenpay", fields: IFTHENPAY },
      50,
    );
    const fromSlow = (m: Received) =>
      m.headers.from!.includes("Linho Lento") && m.to.includes("buyer@example.com");
    w.ifthenpay.mode = "hang";
    w.ifthenpay.hangMs = 1500;
    try {
      const placing = placeWith(slow, "ifthenpay_multibanco");
      // The confirmation goes out at the commit, while the provider still holds the payment's start.
      const [confirmation] = await waitForMessages(smtp, fromSlow, 1, "the slow shop's shopper");
      expect(confirmation!.headers.subject).toStartWith("Order #");
      const placed = await placing;
      expect(placed.status).toBe(201);
      const { number, payment } = placed.body.data;
      const mails = await waitForMessages(smtp, fromSlow, 2, "the slow shop's shopper");
      const instructions = mails.find((m) => m.headers.subject === `How to pay for order #${number}`)!;
      expect(instructions.text.replace(/\s/g, "")).toContain(payment.action.reference);
    } finally {
      w.ifthenpay.mode = "ok";
    }
  });

  test("each email of an event is sent once, whatever the retries: one message per template and recipient", async () => {
    await Bun.sleep(300);
    const ids = smtp.received.map((m) => m.headers["message-id"]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
