import type { Strings } from "../locale.ts";
import { button, paragraph, template } from "../render.ts";

/** How long a password reset link works; the code that issues the link uses the same value. */
export const PASSWORD_RESET_VALID_MINUTES = 30;

export interface PasswordResetData {
  /** Whose account it is: the shop's name for a storefront account, the service's for the dashboard. */
  siteName: string;
  resetUrl: string;
}

const STRINGS: Strings<{
  subject: (site: string) => string;
  title: string;
  body: (site: string) => string;
  action: string;
  validity: (minutes: number) => string;
  ignore: string;
}> = {
  en: {
    subject: (site) => `Reset your ${site} password`,
    title: "Reset your password",
    body: (site) => `Someone asked to reset the password of your ${site} account. To choose a new one:`,
    action: "Choose a new password",
    validity: (minutes) => `The link works for ${minutes} minutes.`,
    ignore: "If you did not ask for this, ignore this email: your password stays as it is.",
  },
  pt: {
    subject: (site) => `Redefinir a palavra-passe de ${site}`,
    title: "Redefinir a palavra-passe",
    body: (site) => `Foi pedida a redefinição da palavra-passe da sua conta em ${site}; para escolher outra:`,
    action: "Escolher nova palavra-passe",
    validity: (minutes) => `A ligação é válida durante ${minutes} minutos.`,
    ignore: "Se não fez este pedido, ignore este email: a sua palavra-passe mantém-se.",
  },
};

/** To an account's owner who asked to reset their password: the link, valid 30 minutes. */
export const passwordReset = template<PasswordResetData>(({ siteName, resetUrl }, l) => {
  const t = STRINGS[l.lang];
  return {
    subject: t.subject(siteName),
    title: t.title,
    blocks: [
      paragraph(t.body(siteName)),
      button(t.action, resetUrl),
      paragraph(t.validity(PASSWORD_RESET_VALID_MINUTES)),
    ],
    footer: [t.ignore],
  };
});
