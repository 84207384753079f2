import type { NextFunction, Request, Response } from "express";
import sharp from "sharp";
import { icoFromPng, monogramSvg } from "../app/utils/favicon";
import { monogramVersion, organizationIcon, PLATFORM_ICON_NAME } from "../app/models/organization.server";
import type { Platform } from "./platform";
import { logger } from "./logger";

/**
 * `/favicon.svg` and `/favicon.ico` on every organization's host (docs/decisions/034-lighthouse.md). Pages
 * link their icon themselves (`organizationIcon`, app/models/organization.server.ts); these two answer the
 * monogram that link names when there is no uploaded favicon or logo, and browsers and tools that read no
 * page and ask for /favicon.ico. That one is sent on to the uploaded favicon or the logo's icon when there
 * is one, else it is the monogram drawn as a PNG inside an ICO. The platform host gets Lectern's monogram.
 * Nothing here opens an organization's database.
 */
const ICO_SIZE = 48;
/** Monogram ICOs by name (a name's drawing never changes); bounded, as they are small and names few. */
const icoCache = new Map<string, Promise<Buffer>>();

function monogramIco(name: string) {
  let ico = icoCache.get(name);
  if (!ico) {
    if (icoCache.size >= 1000) icoCache.clear();
    ico = sharp(Buffer.from(monogramSvg(name)), { density: (72 * ICO_SIZE) / 64 })
      .resize(ICO_SIZE, ICO_SIZE)
      .png()
      .toBuffer()
      .then((png) => Buffer.from(icoFromPng(png, ICO_SIZE)));
    icoCache.set(name, ico);
    ico.catch(() => icoCache.delete(name));
  }
  return ico;
}

export function serveFavicon(platform: Platform) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== "/favicon.ico" && req.path !== "/favicon.svg") return next();
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const { host, organization } = platform.organizations.resolve(req.get("host"));
    // An unknown host (or a SCORM content host) goes on to be answered as such.
    if (!organization && !platform.organizations.isPlatformHost(host)) return next();
    const name = organization?.name ?? PLATFORM_ICON_NAME;
    // The versioned address (the one pages link) never changes what it shows; the bare ones may.
    const cache = req.query.v === monogramVersion(name) ? "public, max-age=31536000, immutable" : "public, max-age=3600";
    res.setHeader("X-Content-Type-Options", "nosniff");
    if (req.path === "/favicon.svg") {
      res.setHeader("Content-Type", "image/svg+xml; charset=utf-8");
      res.setHeader("Cache-Control", cache);
      return res.send(monogramSvg(name));
    }
    const icon = organizationIcon(organization, platform);
    if (!icon.href.startsWith("/favicon.svg")) {
      res.setHeader("Cache-Control", "no-cache");
      return res.redirect(302, icon.href);
    }
    monogramIco(name).then(
      (ico) => {
        res.setHeader("Content-Type", "image/x-icon");
        res.setHeader("Cache-Control", cache);
        res.send(ico);
      },
      (error) => {
        logger.error({ org: organization?.id, error: String(error) }, "favicon render failed");
        if (!res.headersSent) res.status(500).end();
      },
    );
  };
}
