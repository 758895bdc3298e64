import type { Role } from "../../auth/tables.ts";
import type { Strings } from "../locale.ts";
import { button, paragraph, template } from "../render.ts";

export interface MemberInviteData {
  organizationName: string;
  /** The inviter's name, or their email when they have none. */
  inviterName: string;
  role: Role;
  inviteUrl: string;
}

const STRINGS: Strings<{
  subject: (organization: string) => string;
  title: (organization: string) => string;
  body: (inviter: string, organization: string, role: string) => string;
  roles: Record<Role, string>;
  accept: string;
  ignore: string;
}> = {
  en: {
    subject: (organization) => `You are invited to join ${organization}`,
    title: (organization) => `Join ${organization}`,
    body: (inviter, organization, role) => `${inviter} invited you to ${organization} as ${role}.`,
    roles: { owner: "an owner", admin: "an administrator", member: "a member" },
    accept: "Accept the invitation",
    ignore: "If you were not expecting this invitation, ignore this email.",
  },
  pt: {
    subject: (organization) => `Convite para se juntar a ${organization}`,
    title: (organization) => `Junte-se a ${organization}`,
    body: (inviter, organization, role) => `${inviter} convidou-o para ${organization} como ${role}.`,
    roles: { owner: "proprietário", admin: "administrador", member: "membro" },
    accept: "Aceitar o convite",
    ignore: "Se não esperava este convite, ignore este email.",
  },
};

/** To someone invited to an organization: who invited them, with which role, and the link to accept. */
export const memberInvite = template<MemberInviteData>(
  ({ organizationName, inviterName, role, inviteUrl }, l) => {
    const t = STRINGS[l.lang];
    return {
      subject: t.subject(organizationName),
      title: t.title(organizationName),
      blocks: [paragraph(t.body(inviterName, organizationName, t.roles[role])), button(t.accept, inviteUrl)],
      footer: [t.ignore],
    };
  },
);
