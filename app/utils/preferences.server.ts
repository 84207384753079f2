import type { AppLoadContext } from "@remix-run/node";
import { createCookie } from "@remix-run/node";
import { getAuth } from "../kernel/auth.server";
import { detectLanguage } from "./i18n.server";
import type { Language } from "./i18n";
import { defaultThemeFor, isTheme, type Theme } from "./theme";

/** The theme chosen on this device (spec §1: "stored locally on the device"); a year long, host-only. */
export const themeCookie = createCookie("theme", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
  secure: process.env.COOKIE_SECURE === "true",
});

export async function languageFor(request: Request, context: AppLoadContext): Promise<Language> {
  if (!context.language) {
    const auth = await getAuth(request, context);
    context.language = await detectLanguage(request, { user: auth?.person, organization: context.organization });
  }
  return context.language;
}

export async function themeFor(request: Request, context: AppLoadContext): Promise<Theme> {
  if (!context.theme) {
    const chosen = await themeCookie.parse(request.headers.get("Cookie"));
    context.theme = isTheme(chosen) ? chosen : defaultThemeFor(context.organization?.id);
  }
  return context.theme;
}
