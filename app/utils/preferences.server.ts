import type { AppLoadContext } from "@remix-run/node";
import { createCookie } from "@remix-run/node";
import type { Language } from "./i18n";
import { defaultThemeFor, isTheme, type Theme } from "./theme";

/** The theme chosen on this device (docs/product.md §1: "stored locally on the device"); a year long, host-only. */
export const themeCookie = createCookie("theme", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: 60 * 60 * 24 * 365,
  secure: process.env.COOKIE_SECURE === "true",
});

/** The request's interface language: the viewer's (app/kernel/viewer.server.ts decides it once). */
export function languageFor(_request: Request, context: AppLoadContext): Language {
  return context.viewer.language;
}

export async function themeFor(request: Request, context: AppLoadContext): Promise<Theme> {
  if (!context.theme) {
    const chosen = await themeCookie.parse(request.headers.get("Cookie"));
    context.theme = isTheme(chosen) ? chosen : defaultThemeFor(context.organization?.id);
  }
  return context.theme;
}
