import { createCookie } from "@remix-run/node";
import { redirect } from "./redirect";

/**
 * One-time messages after a redirect ("Your password has been changed."), kept in their own short-lived
 * cookie and rendered by the root as HTML, so they show without JavaScript. The cookie holds only a
 * translation key from the `flash` allowlist below, so a forged cookie can show nothing of its own.
 */
export const FLASH_MESSAGES = [
  "auth.password.changed",
  "auth.logout.done",
  "auth.reset.sent",
  "auth.twoFactor.resent",
  "auth.twoFactor.too_many_attempts",
  "flash.organizationCreated",
  "flash.organizationDeleted",
  "flash.settingsSaved",
  "flash.userCreated",
  "flash.userUpdated",
  "flash.userDeleted",
  "flash.signedOutEverywhere",
  "flash.tokenRevoked",
  "flash.fileDeleted",
  "flash.courseCreated",
  "flash.courseSaved",
  "flash.courseDeleted",
  "flash.lessonSaved",
  "flash.lessonDeleted",
  "flash.categorySaved",
  "flash.pathSaved",
  "flash.pathDeleted",
  "flash.pathAssigned",
  "flash.categoryDeleted",
  "flash.carouselSaved",
  "flash.carouselDeleted",
  "flash.cloneStarted",
  "flash.profileSaved",
  "flash.deviceRevoked",
  "certificates.flash.saved",
  "certificates.flash.deleted",
  "certificates.flash.revoked",
  "certificates.flash.restored",
  "quiz.flash.created",
  "quiz.flash.saved",
  "quiz.flash.deleted",
  "quiz.flash.questionSaved",
  "quiz.flash.questionDeleted",
  "quiz.flash.attached",
  // groups and import (issue 14): texts in locales/<lng>/groups.json
  "groups.flash.saved",
  "groups.flash.deleted",
  "groups.flash.recomputed",
  "groups.flash.membersChanged",
  "import.flash.started",
  "bulk.flash.started",
  "person.flash.deviceSignedOut",
  "import.flash.settingsSaved",
  // assigning courses (issue 34): texts in locales/<lng>/assigning.json
  "assigning.flash.assigned",
  "assigning.flash.removed",
  // reminders by e-mail (issue 34): texts in locales/<lng>/reminders.json
  "reminders.flash.saved",
  "lrs.flash.revoked",
  "reminders.flash.off",
  "reminders.flash.on",
] as const;
export type FlashMessage = (typeof FLASH_MESSAGES)[number];

const flashCookie = createCookie("lectern_flash", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: process.env.COOKIE_SECURE === "true",
  maxAge: 60,
});

export async function redirectWithFlash(url: string, message: FlashMessage, init: { headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashCookie.serialize(message));
  return redirect(url, { headers });
}

/** The pending message, if any, and the header that clears it. */
export async function takeFlash(request: Request): Promise<{ message: FlashMessage | null; headers: Headers }> {
  const headers = new Headers();
  const value = await flashCookie.parse(request.headers.get("Cookie"));
  if (value === null || value === undefined) return { message: null, headers };
  headers.append("Set-Cookie", await flashCookie.serialize("", { maxAge: 0 }));
  const message = (FLASH_MESSAGES as readonly string[]).includes(value) ? (value as FlashMessage) : null;
  return { message, headers };
}
