import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { NextFunction, Request, Response } from "express";
import sharp from "sharp";
import type { TenantDb } from "../db/open";
import type { Organization } from "../db/platform";
import { files } from "../db/tenant";
import { fileOnDisk } from "../app/models/file.server";
import { IMAGE_BUCKETS, IMAGE_DENSITY, isImageBucket } from "../app/utils/images";
import type { Platform } from "./platform";
import { sendStatusPage } from "./status-page";
import { logger } from "./logger";

/**
 * The image provider: `/images/<bucket>/<fileId>/<signature>?w=<css px>` answers a WebP of the stored
 * image, resized for the bucket's shape at 2x density, never larger than the original. The signature
 * (made by Platform.imageUrl, bound to the organization, the file and the bucket) keeps file ids from being
 * enumerated; widths come from the bucket's allowlist, so a request can never ask for unbounded work.
 * Renders are cached on disk under `<DATA_DIR>/cache/images/org-<id>/` (outside the organization's folder,
 * so backups skip them), keyed by the file's content hash: a replaced or re-used id never shows a stale
 * image, and a deleted file is refused before the cache is read.
 */
const MAX_PARALLEL_RENDERS = 2;
let running = 0;
const waiting: (() => void)[] = [];
const inFlight = new Map<string, Promise<void>>();

async function withRenderSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await work();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/**
 * Resolves once every render under way has finished, written or failed. A stopping server waits for them
 * (server/index.ts), so none writes into the data directory after the server let go of it; renders started
 * meanwhile are waited for too.
 */
export async function settleImageRenders() {
  while (inFlight.size) await Promise.allSettled([...inFlight.values()]);
}

export function imageCacheDir(dataDir: string, organizationId: number) {
  return path.join(dataDir, "cache", "images", `org-${organizationId}`);
}

async function render(source: string, target: string, bucket: keyof typeof IMAGE_BUCKETS, cssWidth: number) {
  const preset = IMAGE_BUCKETS[bucket];
  const width = cssWidth * IMAGE_DENSITY;
  const data = await sharp(source, { limitInputPixels: 50_000_000 })
    .rotate()
    .resize({
      width,
      height: preset.aspect ? Math.round(width / preset.aspect) : undefined,
      fit: preset.fit,
      position: "attention",
      // What "contain" pads with (the icon bucket): nothing.
      background: { r: 0, g: 0, b: 0, alpha: 0 },
      withoutEnlargement: true,
    })
    .webp({ quality: 78, effort: 4 })
    .toBuffer();
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, target); // atomic: a reader sees the whole image or none
}

export function serveImages(platform: Platform) {
  return (req: Request, res: Response, next: NextFunction) => {
    const match = /^\/images\/([a-z]+)\/(\d+)\/([A-Za-z0-9_-]{43})$/.exec(req.path);
    if (!match) return next();
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const tenant = res.locals.tenant as { organization: Organization | null; db: TenantDb | null };
    if (!tenant.organization || !tenant.db) return sendStatusPage(req, res, 404);
    const [, bucket, id, signature] = match;
    if (!isImageBucket(bucket) || !platform.verifyImageSignature(tenant.organization.id, Number(id), bucket, signature)) {
      return sendStatusPage(req, res, 404);
    }
    const cssWidth = Number(req.query.w);
    if (!(IMAGE_BUCKETS[bucket].widths as readonly number[]).includes(cssWidth)) return sendStatusPage(req, res, 400);
    const file = tenant.db
      .select()
      .from(files)
      .where(eq(files.id, Number(id)))
      .get();
    if (!file || file.kind !== "image") return sendStatusPage(req, res, 404);

    const organizationId = tenant.organization.id;
    const target = path.join(
      imageCacheDir(platform.dataDir, organizationId),
      `${file.id}-${file.sha256.slice(0, 16)}-${bucket}-${cssWidth}.webp`,
    );
    const send = () =>
      res.sendFile(
        target,
        {
          headers: {
            "Content-Type": "image/webp",
            "Cache-Control": "public, max-age=31536000, immutable",
            "X-Content-Type-Options": "nosniff",
            "Cross-Origin-Resource-Policy": "same-origin",
          },
          dotfiles: "allow",
        },
        (error) => {
          if (error && !res.headersSent) sendStatusPage(req, res, 404);
        },
      );
    if (fs.existsSync(target)) return send();

    let job = inFlight.get(target);
    if (!job) {
      const source = fileOnDisk(platform.dataDir, organizationId, file);
      job = withRenderSlot(() => render(source, target, bucket, cssWidth)).finally(() => inFlight.delete(target));
      inFlight.set(target, job);
    }
    job.then(send, (error) => {
      logger.error({ org: organizationId, file: file.id, error: String(error) }, "image render failed");
      if (!res.headersSent) sendStatusPage(req, res, 404);
    });
  };
}
