import type { TFunction } from "i18next";
import type { Language } from "../utils/i18n";

/**
 * The reminder and digest mails (issue 34; docs/decisions/038-reminders.md): plain text and a simple HTML
 * part, in the reader's language (app/models/auth/mail.server.ts `mailLanguage`), with links on the
 * organization's stored origin only. Built from plain data so that a test or a screenshot can render one
 * without a database.
 */

export type ReminderKind = "assigned" | "before" | "due" | "overdue";
export type OpenState = "not_started" | "in_progress" | "overdue";

export interface ReminderItem {
  kind: ReminderKind;
  /** What is assigned: a course, or a learning path (issue 49). */
  subject: "course" | "path";
  /** The course's or the path's title. */
  title: string;
  /** The course's or the path's address on the organization's host. */
  url: string;
  /** The due day (YYYY-MM-DD, the organization's local day). */
  dueOn: string;
  state: OpenState;
  /** Days from today to the due day (negative: overdue by that many). */
  daysLeft: number;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** Texts are filled in without escaping (app/utils/i18n.server.ts): the HTML part escapes every one here. */
const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(value: string) {
  return /[&<>"']/.test(value) ? value.replace(/[&<>"']/g, (c) => ENTITIES[c]) : value;
}

/** Most pressing first: what the subject names. */
const URGENCY: Record<ReminderKind, number> = { overdue: 0, due: 1, before: 2, assigned: 3 };

const LOCALES: Record<Language, string> = { en: "en-GB", pl: "pl-PL", da: "da-DK", no: "nb-NO", sv: "sv-SE" };
// Building a formatter costs about a millisecond; a run writes the same few days thousands of times.
const dateFormats = new Map<Language, Intl.DateTimeFormat>();
const writtenDays = new Map<string, string>();

/**
 * A local day written out in the mail's language, as certificates write theirs (the learner's locale:
 * app/models/certificate-html.server.ts); the day is already the organization's, so no zone shift.
 */
export function mailDate(day: string, language: Language) {
  const key = `${language}|${day}`;
  let text = writtenDays.get(key);
  if (text === undefined) {
    let format = dateFormats.get(language);
    if (!format) dateFormats.set(language, (format = new Intl.DateTimeFormat(LOCALES[language], { dateStyle: "long", timeZone: "UTC" })));
    text = format.format(new Date(`${day}T12:00:00Z`));
    if (writtenDays.size >= 10_000) writtenDays.clear();
    writtenDays.set(key, text);
  }
  return text;
}

/**
 * The texts a run writes into thousands of mails, each translated once per language and organization (a
 * run of the bench's 10,000 learners asked i18next half a million times otherwise).
 */
class Texts {
  readonly #t: TFunction;
  readonly #kept = new Map<string, string>();
  constructor(
    t: TFunction,
    readonly language: Language,
    readonly organization: string,
  ) {
    this.#t = t;
  }
  get(key: string, count?: number) {
    const id = count === undefined ? key : `${key}|${count}`;
    let text = this.#kept.get(id);
    if (text === undefined) {
      if (this.#kept.size >= 5_000) this.#kept.clear(); // due days and counts come and go over the months
      text = this.#t(key, { organization: this.organization, ...(count === undefined ? {} : { count }) });
      this.#kept.set(id, text);
    }
    return text;
  }
  due(day: string) {
    const id = `due|${day}`;
    let text = this.#kept.get(id);
    if (text === undefined) this.#kept.set(id, (text = this.#t("reminders.mail.due", { date: mailDate(day, this.language) })));
    return text;
  }
  state(state: OpenState) {
    const id = `state|${state}`;
    let text = this.#kept.get(id);
    if (text === undefined) this.#kept.set(id, (text = this.#t("reminders.mail.state", { state: this.#t(`reminders.state.${state}`) })));
    return text;
  }
}
const textsOf = new WeakMap<TFunction, Map<string, Texts>>();
function textsFor(t: TFunction, language: Language, organization: string) {
  let byOrganization = textsOf.get(t);
  if (!byOrganization) textsOf.set(t, (byOrganization = new Map()));
  let texts = byOrganization.get(organization);
  if (!texts) byOrganization.set(organization, (texts = new Texts(t, language, organization)));
  return texts;
}

function itemNote(texts: Texts, item: ReminderItem) {
  switch (item.kind) {
    case "assigned":
      return texts.get("reminders.mail.note.assigned");
    case "before":
      return texts.get("reminders.mail.note.before", item.daysLeft);
    case "due":
      return texts.get("reminders.mail.note.due");
    case "overdue":
      return texts.get("reminders.mail.note.overdue", -item.daysLeft);
  }
}

/** "A course …" or "A learning path …": the keys of a single item's texts that name what it is. */
const ofPath = (item: ReminderItem) => (item.subject === "path" ? "Path" : "");
const withPaths = (items: ReminderItem[]) => (items.some((i) => i.subject === "path") ? "WithPaths" : "");

function subjectOf(t: TFunction, items: ReminderItem[], organization: string) {
  if (items.length > 1) return t(`reminders.mail.subject.several${withPaths(items)}`, { count: items.length, organization });
  const [item] = items;
  const course = item.title;
  if (item.kind === "before") return t("reminders.mail.subject.before", { count: item.daysLeft, course });
  if (item.kind === "assigned") return t(`reminders.mail.subject.assigned${ofPath(item)}`, { course, organization });
  return t(`reminders.mail.subject.${item.kind}`, { course, organization });
}

/** An item's title as the mail shows it: a path's says it is one. */
const titleOf = (texts: Texts, item: ReminderItem) =>
  item.subject === "path" ? `${texts.get("reminders.mail.pathLabel")}: ${item.title}` : item.title;

/** The shell every reminder and digest shares: a heading, the body, and why the reader gets it. */
function htmlPage({ language, organization, body, footer }: { language: Language; organization: string; body: string; footer: string }) {
  return `<!doctype html>
<html lang="${language}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(organization)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;color:#18181b;">
<div style="max-width:600px;margin:0 auto;padding:24px 16px;">
<p style="margin:0 0 16px;font-size:14px;font-weight:600;color:#52525b;">${escapeHtml(organization)}</p>
<div style="background:#ffffff;border-radius:8px;padding:24px;border:1px solid #e4e4e7;">
${body}
</div>
<div style="padding:16px 4px;font-size:12px;line-height:1.5;color:#52525b;">${footer}</div>
</div>
</body>
</html>
`;
}

const paragraph = (text: string) => `<p style="margin:0 0 16px;font-size:16px;line-height:1.5;">${escapeHtml(text)}</p>`;
const link = (href: string, text: string, style = "color:#1d4ed8;") =>
  `<a href="${escapeHtml(href)}" style="${style}">${escapeHtml(text)}</a>`;

/**
 * One person's reminders of one run, in one mail: a person assigned a bundle of courses gets one mail,
 * not one per course. Each item names its course or learning path (linked), its due day, its state and why it
 * is mailed now.
 */
export function composeReminder(
  t: TFunction,
  {
    language,
    organization,
    name,
    items,
    unsubscribeUrl,
    settingsUrl,
  }: { language: Language; organization: string; name: string; items: ReminderItem[]; unsubscribeUrl: string; settingsUrl: string },
): ComposedMail {
  const texts = textsFor(t, language, organization);
  const sorted = [...items].sort((a, b) => URGENCY[a.kind] - URGENCY[b.kind] || a.dueOn.localeCompare(b.dueOn));
  const subject = subjectOf(t, sorted, organization);
  const intro = texts.get(
    sorted.length > 1 ? `reminders.mail.intro.several${withPaths(sorted)}` : `reminders.mail.intro.${sorted[0].kind}${ofPath(sorted[0])}`,
  );
  const lines = sorted.map((item) => ({ item, note: itemNote(texts, item), due: texts.due(item.dueOn), state: texts.state(item.state) }));
  const why = texts.get("reminders.mail.why");
  const greeting = t("mail.greeting", { name });
  const signature = texts.get("mail.signature");
  const text = [
    greeting,
    intro,
    ...lines.map(({ item, note, due, state }) => `${titleOf(texts, item)}\n${note} · ${due} · ${state}\n${item.url}`),
    signature,
    `--\n${why}\n${texts.get("reminders.mail.unsubscribe")}: ${unsubscribeUrl}\n${texts.get("reminders.mail.settings")}: ${settingsUrl}`,
  ].join("\n\n");
  const cards = lines
    .map(
      ({ item, note, due, state }) => `<div style="border:1px solid #e4e4e7;border-left:4px solid ${
        item.state === "overdue" ? "#b91c1c" : item.kind === "due" ? "#b45309" : "#1d4ed8"
      };border-radius:6px;padding:12px 16px;margin:0 0 12px;">
<p style="margin:0 0 4px;font-size:17px;font-weight:600;line-height:1.4;">${link(item.url, titleOf(texts, item), "color:#18181b;text-decoration:none;")}</p>
<p style="margin:0 0 8px;font-size:14px;line-height:1.5;color:#3f3f46;">${escapeHtml(note)} · ${escapeHtml(due)} · ${escapeHtml(state)}</p>
<p style="margin:0;font-size:14px;">${link(item.url, texts.get(item.subject === "path" ? "reminders.mail.openPath" : "reminders.mail.open"), "color:#1d4ed8;font-weight:600;")}</p>
</div>`,
    )
    .join("\n");
  const html = htmlPage({
    language,
    organization,
    body: `${paragraph(greeting)}\n${paragraph(intro)}\n${cards}\n${paragraph(signature)}`,
    footer: `${escapeHtml(why)}<br>${link(unsubscribeUrl, texts.get("reminders.mail.unsubscribe"), "color:#52525b;")} · ${link(settingsUrl, texts.get("reminders.mail.settings"), "color:#52525b;")}`,
  });
  return { subject, text: `${text}\n`, html };
}

export interface DigestLine {
  name: string;
  email: string;
  courseTitle: string;
  /** The line is about a learning path (`courseTitle` is its title). */
  path?: boolean;
  dueOn: string;
  daysOverdue: number;
}

export interface DigestSection {
  /** A course or learning path (organization admins) or a group (group admins). */
  title: string;
  /** The section is a learning path's. */
  path?: boolean;
  url: string;
  lines: DigestLine[];
  /** Lines of the section not given (beyond what a digest lists), counted in "… and N more". */
  hidden?: number;
}

/** Lines listed at most; the rest are counted ("… and 120 more"), the dashboard has them all. */
export const DIGEST_MAX_LINES = 200;

/** The weekly digest of overdue people for an organization admin (by course) or a group admin (by group). */
export function composeDigest(
  t: TFunction,
  {
    language,
    organization,
    name,
    scope,
    sections,
    people,
    dashboardUrl,
    unsubscribeUrl,
  }: {
    language: Language;
    organization: string;
    name: string;
    scope: "organization" | "groups";
    sections: DigestSection[];
    /** How many people are overdue (a person overdue on two courses counts once). */
    people: number;
    dashboardUrl: string;
    unsubscribeUrl: string;
  },
): ComposedMail {
  const subject = t("reminders.digest.subject", { count: people, organization });
  const intro = t(scope === "organization" ? "reminders.digest.introOrganization" : "reminders.digest.introGroups", { organization });
  let left = DIGEST_MAX_LINES;
  let more = 0;
  const shown = sections.map((section) => {
    const lines = section.lines.slice(0, Math.max(0, left));
    left -= lines.length;
    more += section.lines.length - lines.length + (section.hidden ?? 0);
    return { ...section, lines };
  });
  // An organization admin's sections are courses: their lines leave the course out.
  const lineText = (l: DigestLine) =>
    t(scope === "organization" ? "reminders.digest.lineInCourse" : "reminders.digest.line", {
      name: l.name,
      email: l.email,
      course: l.path ? `${t("reminders.mail.pathLabel")}: ${l.courseTitle}` : l.courseTitle,
      date: mailDate(l.dueOn, language),
      count: l.daysOverdue,
    });
  const why = t("reminders.digest.why", { organization });
  const visible = shown
    .filter((s) => s.lines.length)
    .map((s) => (s.path ? { ...s, title: `${t("reminders.mail.pathLabel")}: ${s.title}` } : s));
  const text = [
    t("mail.greeting", { name }),
    intro,
    ...visible.map((s) => `${s.title} (${s.url})\n${s.lines.map((l) => `- ${lineText(l)}`).join("\n")}`),
    ...(more ? [t("reminders.digest.more", { count: more })] : []),
    `${t("reminders.digest.open")}: ${dashboardUrl}`,
    t("mail.signature", { organization }),
    `--\n${why}\n${t("reminders.mail.unsubscribe")}: ${unsubscribeUrl}`,
  ].join("\n\n");
  const body = [
    paragraph(t("mail.greeting", { name })),
    paragraph(intro),
    ...visible.map(
      (s) => `<h2 style="margin:20px 0 8px;font-size:17px;line-height:1.4;">${link(s.url, s.title, "color:#18181b;")}</h2>
<ul style="margin:0 0 16px;padding-left:20px;font-size:14px;line-height:1.6;">${s.lines.map((l) => `<li>${escapeHtml(lineText(l))}</li>`).join("")}</ul>`,
    ),
    ...(more ? [paragraph(t("reminders.digest.more", { count: more }))] : []),
    `<p style="margin:0 0 16px;font-size:16px;">${link(dashboardUrl, t("reminders.digest.open"), "color:#1d4ed8;font-weight:600;")}</p>`,
    paragraph(t("mail.signature", { organization })),
  ].join("\n");
  const html = htmlPage({
    language,
    organization,
    body,
    footer: `${escapeHtml(why)}<br>${link(unsubscribeUrl, t("reminders.mail.unsubscribe"), "color:#52525b;")}`,
  });
  return { subject, text: `${text}\n`, html };
}
