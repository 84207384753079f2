import type { Organization } from "../../../db/platform";
import type { User } from "../../../db/tenant";
import type { MailServices } from "../../../server/services";
import { getFixedT } from "../../utils/i18n.server";
import { FALLBACK_LANGUAGE, isLanguage } from "../../utils/i18n";
import type { AuthRealm } from "./realm.server";

/** Mails speak the person's language, else the organization's (reminders too: app/models/reminder-mail.server.ts). */
export function mailLanguage(person: Pick<User, "language">, organization: Pick<Organization, "language"> | null) {
  return isLanguage(person.language) ? person.language : isLanguage(organization?.language) ? organization.language : FALLBACK_LANGUAGE;
}

/** Mails speak the person's language, else the organization's; links use the stored origin only. */
async function compose(platform: MailServices, realm: AuthRealm, person: User) {
  const language = mailLanguage(person, realm.organization);
  const t = await getFixedT(language);
  const organization = realm.organization?.name ?? "Lectern";
  const name = [person.firstName, person.lastName].filter(Boolean).join(" ") || person.email;
  return { t, organization, name, origin: platform.originFor(realm.organization) };
}

/**
 * Sign-in mails go to the person only: the organization's BCC address (docs/product.md §3) gets copies of other
 * mail, but a copy of a code or a link would let its reader sign in as anyone.
 */
function send(platform: MailServices, _realm: AuthRealm, to: string, subject: string, lines: string[]) {
  return platform.mailer.send({ to, subject, text: `${lines.join("\n\n")}\n` });
}

export async function sendTwoFactorCode(platform: MailServices, realm: AuthRealm, person: User, code: string) {
  const { t, organization, name } = await compose(platform, realm, person);
  await send(platform, realm, person.email, t("mail.twoFactor.subject", { organization }), [
    t("mail.greeting", { name }),
    t("mail.twoFactor.body", { code }),
    t("mail.twoFactor.ignore"),
    t("mail.signature", { organization }),
  ]);
}

export async function sendPasswordReset(platform: MailServices, realm: AuthRealm, person: User, token: string) {
  const { t, organization, name, origin } = await compose(platform, realm, person);
  const link = `${origin}/auth/reset/${encodeURIComponent(person.email)}/${token}`;
  await send(platform, realm, person.email, t("mail.reset.subject", { organization }), [
    t("mail.greeting", { name }),
    `${t("mail.reset.body")}\n${link}`,
    t("mail.reset.ignore"),
    t("mail.signature", { organization }),
  ]);
}

export async function sendMagicLink(platform: MailServices, realm: AuthRealm, person: User, code: string) {
  const { t, organization, name, origin } = await compose(platform, realm, person);
  const link = `${origin}/?auth=${code}`;
  await send(platform, realm, person.email, t("mail.magic.subject", { organization }), [
    t("mail.greeting", { name }),
    `${t("mail.magic.body")}\n${link}`,
    t("mail.reset.ignore"),
    t("mail.signature", { organization }),
  ]);
}

/** A person added by an admin (or an organization's first admin) chooses a password from this mail. */
export async function sendInvitation(platform: MailServices, realm: AuthRealm, person: User, token: string) {
  const { t, organization, name, origin } = await compose(platform, realm, person);
  const link = `${origin}/auth/reset/${encodeURIComponent(person.email)}/${token}`;
  await send(platform, realm, person.email, t("mail.invitation.subject", { organization }), [
    t("mail.greeting", { name }),
    t("mail.invitation.body", { organization }),
    `${t("mail.invitation.action")}\n${link}`,
    t("mail.signature", { organization }),
  ]);
}

/**
 * Someone reached the account's ceiling of failed sign-ins (throttle.server.ts): told once per window, with
 * the ways in that still work (a known device, a sign-in link, a new password).
 */
export async function sendGuessingAlert(platform: MailServices, realm: AuthRealm, person: User) {
  const { t, organization, name, origin } = await compose(platform, realm, person);
  await send(platform, realm, person.email, t("signInGuard.mail.subject", { organization }), [
    t("mail.greeting", { name }),
    t("signInGuard.mail.body", { organization }),
    realm.kind === "organization" ? `${t("signInGuard.mail.link")}\n${origin}/auth/magic` : t("signInGuard.mail.device"),
    `${t("signInGuard.mail.reset")}\n${origin}/auth/reset`,
    t("mail.signature", { organization }),
  ]);
}
