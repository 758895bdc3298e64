import { describe, expect, test } from "bun:test";
import { escapeHtml, html } from "../../src/email/html.ts";
import { renderPreview, TEMPLATE_NAMES, TEMPLATES } from "../../src/email/registry.ts";
import {
  newOrderSample,
  orderShippedSample,
  paymentInstructionsSample,
  shopperOrderSample,
} from "../../src/email/samples.ts";
import { newOrder } from "../../src/email/templates/new-order.ts";
import { orderConfirmation } from "../../src/email/templates/order-confirmation.ts";
import { orderShipped } from "../../src/email/templates/order-shipped.ts";
import { paymentInstructions } from "../../src/email/templates/payment-instructions.ts";

// The templates rendered for real, in both shipped languages and a fallback one; HTML checked as
// the text a mail client receives.

/** Intl separates amounts and times with no-break spaces; the assertions write plain ones. */
const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

/** The HTML with its tags removed and the entities the renderer writes decoded: what a reader sees. */
const visible = (markup: string) =>
  spaced(markup)
    .replace(/<[^>]*>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

describe("every template", () => {
  test("has sample data, an audience, and renders it in en, pt and a fallback locale without undefined, NaN or [object Object]", () => {
    expect<string[]>([...TEMPLATE_NAMES].sort()).toEqual(
      [
        "low_stock",
        "member_invite",
        "new_order",
        "order_cancelled",
        "order_confirmation",
        "order_refunded",
        "order_shipped",
        "password_reset",
        "payment_instructions",
        "payment_received",
        "webhook_failing",
      ].sort(),
    );
    for (const name of TEMPLATE_NAMES) {
      expect(["shopper", "shop", "account"]).toContain(TEMPLATES[name].audience);
      for (const locale of ["en", "pt", "pt-PT", "de"]) {
        const email = renderPreview(name, locale);
        for (const part of [email.subject, email.html, email.text]) {
          expect(part.length, `${name} ${locale}`).toBeGreaterThan(0);
          expect(part, `${name} ${locale}`).not.toMatch(/undefined|NaN|\[object Object\]|null/);
        }
        expect(email.html).toStartWith("<!doctype html>");
        expect(email.html).toContain(`<html lang="${locale === "de" ? "en" : locale.slice(0, 2)}">`);
      }
    }
  });

  test("the Portuguese and English versions differ in words, not in data", () => {
    for (const name of TEMPLATE_NAMES) {
      const en = renderPreview(name, "en");
      const pt = renderPreview(name, "pt");
      expect(pt.subject, name).not.toBe(en.subject);
      expect(pt.text, name).not.toBe(en.text);
      // Every link of the English text is also in the Portuguese one.
      const links = (text: string) => (text.match(/https?:\/\/\S+/g) ?? []).sort();
      expect(links(pt.text), name).toEqual(links(en.text));
      expect(links(en.text).length, name).toBeGreaterThan(0);
    }
  });

  test("a locale without strings falls back to English as a whole; a regional one uses its language", () => {
    expect(renderPreview("order_confirmation", "de-DE")).toEqual(renderPreview("order_confirmation", "en"));
    expect(renderPreview("order_confirmation", "xx-not a tag")).toEqual(
      renderPreview("order_confirmation", "en"),
    );
    expect(renderPreview("order_confirmation", "pt-PT")).toEqual(renderPreview("order_confirmation", "pt"));
    expect(renderPreview("order_confirmation", "pt-BR").subject).toBe(
      "Encomenda n.º 1001 confirmada – Linen & Co.",
    );
  });
});

describe("order confirmation", () => {
  test("shows the number, each line with quantity and total, the totals, both addresses and the order link with its token", () => {
    const order = {
      ...shopperOrderSample.order,
      items: [
        {
          ...shopperOrderSample.order.items[0]!,
          variantTitle: "M",
          quantity: 3,
          total: { amount: 12_345, currency: "EUR" },
        },
      ],
      totals: {
        subtotal: { amount: 12_345, currency: "EUR" },
        discount: { amount: 1_000, currency: "EUR" },
        shipping: { amount: 450, currency: "EUR" },
        tax: { amount: 2_205, currency: "EUR" },
        total: { amount: 11_795, currency: "EUR" },
        refunded: { amount: 0, currency: "EUR" },
      },
      billingAddress: { ...shopperOrderSample.order.shippingAddress!, line1: "Avenida da Liberdade 1" },
    };
    const email = orderConfirmation({ ...shopperOrderSample, order }, "pt");
    expect(email.subject).toBe("Encomenda n.º 1001 confirmada – Linen & Co.");
    expect(spaced(email.text)).toContain("3 × Camisa de linho (M): 123,45 €");
    expect(spaced(email.text)).toContain("Subtotal: 123,45 €");
    expect(spaced(email.text)).toContain("Desconto: −10,00 €");
    expect(spaced(email.text)).toContain("Envio: 4,50 €");
    // 123.45 − 10.00 + 4.50 = 117.95: VAT is included in the prices.
    expect(spaced(email.text)).toContain("IVA incluído: 22,05 €");
    expect(spaced(email.text)).toContain("Total: 117,95 €");
    expect(spaced(email.text)).toContain(
      "Morada de envio\nAna Silva\nRua Augusta 10\n1100-053 Lisboa\nPortugal",
    );
    expect(spaced(email.text)).toContain("Morada de faturação\nAna Silva\nAvenida da Liberdade 1");
    expect(spaced(email.text)).toContain(`Ver a encomenda: ${shopperOrderSample.orderUrl}`);
    expect(shopperOrderSample.orderUrl).toContain("?token=");
    expect(email.html).toContain(`href="${shopperOrderSample.orderUrl}"`);
    for (const shown of ["123,45 €", "−10,00 €", "4,50 €", "22,05 €", "117,95 €", "Camisa de linho (M)"]) {
      expect(visible(email.html)).toContain(shown);
    }
    expect(spaced(email.text)).toContain(
      "Dúvidas? Responda a este email ou escreva para hello@linen.example.",
    );
  });

  test("VAT added on top of the prices is labelled VAT, not VAT included", () => {
    const order = {
      ...shopperOrderSample.order,
      totals: {
        ...shopperOrderSample.order.totals,
        tax: { amount: 2070, currency: "EUR" },
        total: { amount: 11_070, currency: "EUR" },
      },
    };
    const email = orderConfirmation({ ...shopperOrderSample, order }, "en");
    expect(spaced(email.text)).toContain("\nVAT: €20.70\n");
    expect(spaced(email.text)).toContain("Total: €110.70");
  });

  test("money is formatted from minor units with the currency's own decimals", () => {
    const yen = (amount: number) => ({ amount, currency: "JPY" });
    const order = {
      ...shopperOrderSample.order,
      currency: "JPY",
      items: [{ ...shopperOrderSample.order.items[0]!, total: yen(9000) }],
      totals: {
        subtotal: yen(9000),
        discount: yen(0),
        shipping: yen(500),
        tax: yen(0),
        total: yen(9500),
        refunded: yen(0),
      },
    };
    const email = orderConfirmation({ ...shopperOrderSample, order }, "en");
    expect(spaced(email.text)).toContain("Total: ¥9,500");
  });
});

describe("payment instructions", () => {
  test("Multibanco shows the entity, the reference in groups of three, the amount and the expiry", () => {
    const email = paymentInstructions(paymentInstructionsSample, "pt");
    expect(email.subject).toBe("Como pagar a encomenda n.º 1001");
    expect(spaced(email.text)).toContain("Entidade: 11249");
    expect(spaced(email.text)).toContain("Referência: 123 456 789");
    expect(spaced(email.text)).toContain("Montante: 90,00 €");
    expect(spaced(email.text)).toContain("Pagar até: 27 de novembro de 2026 às 08:19 UTC");
    for (const shown of ["11249", "123 456 789", "90,00 €", "27 de novembro de 2026"]) {
      expect(visible(email.html)).toContain(shown);
    }
    const en = paymentInstructions(paymentInstructionsSample, "en");
    expect(spaced(en.text)).toContain("Entity: 11249");
    expect(spaced(en.text)).toContain("Amount: €90.00");
    expect(spaced(en.text)).toContain("Pay by: November 27, 2026 at 8:19 AM UTC");
  });

  test("MB WAY asks to approve the payment in the app on the phone", () => {
    const payment = {
      ...paymentInstructionsSample.payment,
      method: "mbway",
      action: { type: "push" as const, phone: "+351 912 345 678", expiresAt: "2026-11-24T08:24:15.000Z" },
    };
    const email = paymentInstructions({ ...paymentInstructionsSample, payment }, "pt");
    expect(spaced(email.text)).toContain(
      "Abra a app MB WAY no telemóvel +351 912 345 678 e aprove o pagamento de 90,00 € até 24 de novembro de 2026 às 08:24 UTC.",
    );
  });

  test("offline methods show the shop's own instructions in the shopper's language, line breaks kept", () => {
    const payment = {
      ...paymentInstructionsSample.payment,
      provider: "manual",
      method: "bank_transfer",
      action: {
        type: "offline" as const,
        instructions: {
          en: "IBAN PT50 0000 0000\nReference: your order number",
          pt: "IBAN PT50 0000 0000\nIndique o número da encomenda",
        },
      },
    };
    const email = paymentInstructions({ ...paymentInstructionsSample, payment }, "pt");
    expect(spaced(email.text)).toContain(
      "Pague 90,00 € da seguinte forma:\n\nIBAN PT50 0000 0000\nIndique o número da encomenda",
    );
    expect(email.html).toContain("IBAN PT50 0000 0000<br>Indique o número da encomenda");
  });
});

describe("escaping", () => {
  const hostile = `<script>alert(1)</script> "&'`;

  test("a product name, a shop name and a customer note appear escaped in HTML and as written in text", () => {
    const order = {
      ...newOrderSample.order,
      note: hostile,
      items: [{ ...newOrderSample.order.items[0]!, productName: { en: hostile, pt: hostile } }],
    };
    const store = { name: `Shop ${hostile}`, contactEmail: "hello@linen.example" };
    for (const email of [
      newOrder({ ...newOrderSample, store, order }, "en"),
      orderConfirmation({ ...shopperOrderSample, store, order }, "pt"),
    ]) {
      expect(email.html).not.toContain("<script>");
      expect(email.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; &quot;&amp;&#39;");
      expect(visible(email.html)).toContain(hostile);
      expect(email.text).toContain(hostile);
    }
  });

  test("a link cannot break out of its attribute, and one that is not http(s) is refused", () => {
    const orderUrl = `https://linen.example/orders/1?token=a"onclick="alert(1)&x=<b>`;
    const email = orderConfirmation({ ...shopperOrderSample, orderUrl }, "en");
    expect(email.html).toContain(
      `href="https://linen.example/orders/1?token=a&quot;onclick=&quot;alert(1)&amp;x=&lt;b&gt;"`,
    );
    expect(() => orderConfirmation({ ...shopperOrderSample, orderUrl: "javascript:alert(1)" }, "en")).toThrow(
      "an email link must be an http(s) URL",
    );
  });

  test("a tracking URL the merchant typed that is not http(s) is left out, its number still shown", () => {
    const fulfillment = { ...orderShippedSample.fulfillment, trackingUrl: "javascript:alert(1)" };
    const email = orderShipped({ ...orderShippedSample, fulfillment }, "en");
    expect(email.html).not.toContain("javascript:");
    expect(email.text).not.toContain("Track your parcel");
    expect(email.text).toContain("Tracking number: RR123456789PT");
  });

  test("html escapes every value it is given and refuses undefined and objects", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    const name = "<b>";
    expect(html`<p>${name}</p>${html`<i>${1}</i>`}${[html`<br>`, html`<br>`]}${null}${false}`.value).toBe(
      "<p>&lt;b&gt;</p><i>1</i><br><br>",
    );
    const untyped = (value: unknown) => html`<p>${value as string}</p>`;
    expect(() => untyped(undefined)).toThrow(TypeError);
    expect(() => untyped({ a: 1 })).toThrow(TypeError);
    expect(() => untyped(Number.NaN)).toThrow(TypeError);
  });
});
