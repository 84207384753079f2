import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { lessonAccess } from "../../app/access/courses";
import { findLesson } from "../../app/models/course-lookup.server";
import { viewerOfPerson } from "../../app/kernel/viewer.server";
import { isLanguage, type Language } from "../../app/utils/i18n";
import { getPackage } from "../../app/models/scorm.server";
import { getContentPackage } from "../../app/models/packages/install.server";
import type { ScormToken } from "../../app/models/scorm-token.server";
import type { Platform } from "../platform";

/**
 * The package and lesson a token opens, if the token's learner may still open the lesson now: access is
 * checked again for every address, so an address handed out before the course was unpublished or closed
 * to the learner stops working. The address's person as they are now (app/kernel/viewer.server.ts): a
 * preview address holds only while its holder may still preview drafts.
 */
export function openedBy(platform: Platform, organization: Organization, db: TenantDb, token: ScormToken) {
  const pkg = getPackage(db, token.lessonId);
  if (!pkg || pkg.id !== token.packageId) return null;
  const opened = mayOpen(platform, organization, db, token);
  return opened && { pkg, ...opened };
}

/** The xAPI or cmi5 package and lesson a `package` token opens, under the same check. */
export function packageOpenedBy(platform: Platform, organization: Organization, db: TenantDb, token: ScormToken) {
  const pkg = getContentPackage(db, token.lessonId);
  if (!pkg || pkg.id !== token.packageId || !pkg.folder) return null;
  const opened = mayOpen(platform, organization, db, token);
  return opened && { pkg: { ...pkg, folder: pkg.folder }, ...opened };
}

function mayOpen(platform: Platform, organization: Organization, db: TenantDb, token: ScormToken) {
  const tenancy = { organization, db, platformDb: platform.db, superAdminTwoFactor: platform.config.SUPER_ADMIN_2FA };
  const viewer = viewerOfPerson(tenancy, token.userId, isLanguage(organization.language) ? organization.language : "en");
  const found = findLesson(db, viewer, token.lessonId);
  if (!found || !lessonAccess(db, viewer, found.course, found.lesson).allowed) return null;
  return { lesson: found.lesson, language: viewer.language as Language };
}
