import type { EmailLocale, Strings } from "./locale.ts";
import type { EmailStore } from "./order-summary.ts";
import { button, type EmailContent, template } from "./render.ts";

/** Every email to the shop's team: the shop, and the dashboard page where to act on it. */
export interface ShopNoticeData {
  store: EmailStore;
  /** The dashboard page of what the email is about (the order, the variant, the endpoint). */
  adminUrl: string;
}

const STRINGS: Strings<{ open: string; footer: (shop: string) => string }> = {
  en: { open: "Open in the dashboard", footer: (shop) => `A notice for the team of ${shop}` },
  pt: { open: "Abrir no painel", footer: (shop) => `Um aviso para a equipa de ${shop}` },
};

/** A template of an email to the shop's team: `write` says what happened; the dashboard link and footer are added. */
export function shopNoticeTemplate<D extends ShopNoticeData>(
  write: (data: D, l: EmailLocale) => Pick<EmailContent, "subject" | "title" | "blocks">,
) {
  return template<D>((data, l) => {
    const { subject, title, blocks } = write(data, l);
    const t = STRINGS[l.lang];
    return {
      subject,
      title,
      blocks: [...blocks, button(t.open, data.adminUrl)],
      footer: [t.footer(data.store.name)],
    };
  });
}
