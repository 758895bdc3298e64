import { html, httpUrl, multiline, type SafeHtml } from "./html.ts";
import { type EmailLanguage, type EmailLocale, emailLocale } from "./locale.ts";

// An email is written once as a list of blocks and rendered twice, as HTML and as plain text, so
// the two parts always say the same thing and every value reaches the HTML through `html`, which
// escapes it. Templates build blocks from their strings and data; they write no markup.

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

export interface Fact {
  label: string;
  value: string;
  /** Shown in bold (a total). */
  strong?: boolean;
}

export interface ItemRow {
  name: string;
  quantity: number;
  total: string;
}

export type Block =
  | { kind: "paragraph"; text: string }
  | { kind: "button"; label: string; url: string }
  | { kind: "facts"; rows: readonly Fact[] }
  | {
      kind: "items";
      head: readonly [item: string, quantity: string, total: string];
      rows: readonly ItemRow[];
    }
  | { kind: "address"; title: string; lines: readonly string[] };

export const paragraph = (text: string): Block => ({ kind: "paragraph", text });
/** A link shown as a button; the URL must be http(s) (checked when built). */
export const button = (label: string, url: string): Block => ({ kind: "button", label, url: httpUrl(url) });
export const facts = (rows: readonly Fact[]): Block => ({ kind: "facts", rows });

export interface EmailContent {
  lang: EmailLanguage;
  subject: string;
  /** The heading at the top of the message. */
  title: string;
  blocks: readonly Block[];
  /** Small print at the bottom: who sent it, where to ask. */
  footer: readonly string[];
}

/** A template: its data and the shop's locale in, the subject and both parts out. */
export type Template<D> = (data: D, locale: string) => RenderedEmail;

/** A template from what it writes in a given locale. */
export function template<D>(write: (data: D, l: EmailLocale) => Omit<EmailContent, "lang">): Template<D> {
  return (data, locale) => {
    const l = emailLocale(locale);
    const content = { ...write(data, l), lang: l.lang };
    return { subject: content.subject, html: renderHtml(content), text: renderText(content) };
  };
}

const FONT = "font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328";
const CELL = "padding:6px 0;border-bottom:1px solid #e5e7eb";

function htmlFacts(rows: readonly Fact[]): SafeHtml {
  return html`<table role="presentation" style="width:100%;border-collapse:collapse;margin:12px 0">${rows.map(
    (row) =>
      html`<tr${row.strong ? html` style="font-weight:bold"` : null}><td style="${CELL}">${row.label}</td><td style="${CELL};text-align:right">${row.value}</td></tr>`,
  )}</table>`;
}

function htmlItems(block: Extract<Block, { kind: "items" }>): SafeHtml {
  const [item, quantity, total] = block.head;
  return html`<table style="width:100%;border-collapse:collapse;margin:12px 0"><thead><tr><th style="${CELL};text-align:left">${item}</th><th style="${CELL};text-align:right">${quantity}</th><th style="${CELL};text-align:right">${total}</th></tr></thead><tbody>${block.rows.map(
    (row) =>
      html`<tr><td style="${CELL}">${row.name}</td><td style="${CELL};text-align:right">${row.quantity}</td><td style="${CELL};text-align:right">${row.total}</td></tr>`,
  )}</tbody></table>`;
}

function htmlBlock(block: Block): SafeHtml {
  switch (block.kind) {
    case "paragraph":
      return html`<p style="margin:12px 0;line-height:1.5">${multiline(block.text)}</p>`;
    case "button":
      return html`<p style="margin:20px 0"><a href="${block.url}" style="display:inline-block;background:#1f2328;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none">${block.label}</a></p>`;
    case "facts":
      return htmlFacts(block.rows);
    case "items":
      return htmlItems(block);
    case "address":
      return html`<p style="margin:12px 0;line-height:1.5"><strong>${block.title}</strong><br>${multiline(block.lines.join("\n"))}</p>`;
  }
}

function renderHtml(content: EmailContent): string {
  return html`<!doctype html>
<html lang="${content.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${content.subject}</title></head>
<body style="margin:0;padding:0;background:#f6f7f9"><div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff;${FONT}">
<h1 style="font-size:20px;margin:0 0 16px">${content.title}</h1>
${content.blocks.map(htmlBlock)}
<div style="margin-top:32px;font-size:12px;color:#6b7280">${content.footer.map((line) => html`<p style="margin:4px 0">${line}</p>`)}</div>
</div></body></html>
`.value;
}

function textBlock(block: Block): string {
  switch (block.kind) {
    case "paragraph":
      return block.text;
    case "button":
      return `${block.label}: ${block.url}`;
    case "facts":
      return block.rows.map((row) => `${row.label}: ${row.value}`).join("\n");
    case "items":
      return block.rows.map((row) => `${row.quantity} × ${row.name}: ${row.total}`).join("\n");
    case "address":
      return [block.title, ...block.lines].join("\n");
  }
}

function renderText(content: EmailContent): string {
  const parts = [content.title, ...content.blocks.map(textBlock), ["--", ...content.footer].join("\n")];
  return `${parts.join("\n\n")}\n`;
}
