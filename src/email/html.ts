// Building email HTML so that forgetting to escape is hard: `html` escapes every value it is given
// unless the value is itself `html` output, and its types refuse `undefined` and objects, which
// would otherwise print as "undefined" or "[object Object]".

/** Markup that is safe to insert as is: only `html` (and `joinHtml`) make one. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What may be interpolated into `html`: text (escaped), markup, a list of markup, or nothing. */
export type HtmlValue = string | number | SafeHtml | readonly SafeHtml[] | null | false;

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Text made safe for an HTML text node and a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

function fragment(value: HtmlValue): string {
  if (value === null || value === false) return "";
  if (value instanceof SafeHtml) return value.value;
  if (typeof value === "string") return escapeHtml(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return value.map(fragment).join("");
  // Only reachable from untyped input; a template must not print what it does not mean to.
  throw new TypeError(`cannot insert ${String(value)} into an email's HTML`);
}

/** Tagged template: `html\`<p>${name}</p>\`` escapes `name`; nested `html` results are kept as they are. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += fragment(value) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}

/** Plain text as HTML with its line breaks kept (instructions a merchant wrote over several lines). */
export const multiline = (text: string): SafeHtml =>
  new SafeHtml(text.split(/\r?\n/).map(escapeHtml).join("<br>"));

/** Whether `url` is an absolute http(s) URL, the only kind an email links to. */
export function isHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

/** A link the caller must supply (the order page, a reset link): anything but http(s) is a bug. */
export function httpUrl(url: string): string {
  if (!isHttpUrl(url)) throw new TypeError(`an email link must be an http(s) URL (got "${url}")`);
  return url;
}
