import type { TenantConn } from "../../../db/open";
import type { Lesson } from "../../../db/tenant";
import { aus, type Cmi5Course, inLanguage } from "./cmi5-structure";
import { getContentPackage } from "./install.server";
import { openRegistrationOfLesson } from "./registrations.server";
import { waiveAu } from "./waivers.server";

/**
 * The package page's waiver form (intent=waive, registration, au, reason), for an admin the page has let in:
 * the registration must be an open one of this lesson. Answers the unit's title, or the text key of why not.
 */
export function waiveFromForm(
  db: TenantConn,
  { lesson, form, origin, language }: { lesson: Lesson; form: FormData; origin: string; language: string },
): { ok: true; title: string } | { ok: false; key: string } {
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value.slice(0, 2000) : "";
  };
  const pkg = getContentPackage(db, lesson.id);
  const registration = openRegistrationOfLesson(db, field("registration"), lesson.id);
  if (form.get("intent") !== "waive" || !pkg || !registration) return { ok: false, key: "packages.waivers.no_au" };
  const waived = waiveAu(db, { pkg, lesson, userId: registration.userId, auId: field("au"), reason: field("reason"), origin });
  if (!waived.ok) return { ok: false, key: `packages.waivers.${waived.problem}` };
  const unit = aus((pkg.structure as Cmi5Course).children).find((a) => a.id === field("au"))!;
  return { ok: true, title: inLanguage(unit.title, language) };
}
