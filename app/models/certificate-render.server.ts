import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TenantConn } from "../../db/open";
import type { Organization } from "../../db/platform";
import { files, type Certificate, type CertificateLayout } from "../../db/tenant";
import { tenantFolder } from "../../db/tenant-pool";
import {
  certificateDate,
  certificateDay,
  certificateHtml,
  imageDataUri,
  pageBox,
  qrSvg,
  type CertificatePage,
} from "./certificate-html.server";
import { addMonths } from "../utils/calendar";
import { FALLBACK_LANGUAGE, isLanguage } from "../utils/i18n";
import { getFixedT } from "../utils/i18n.server";
import { getCertificate } from "./certificate.server";
import { pdfName, setCertificatePdf } from "./certificate-pdf.server";
import type { Placeholder } from "./certificate-templates.server";
import { fileOnDisk, getFile } from "./file.server";

/** What building a certificate page needs beyond the tenant database. */
export interface CertificateEnv {
  dataDir: string;
  organization: Organization;
  /** The organization's stored origin (never the request's Host), for {verification_url}. */
  origin: string;
}

/** Renders HTML to bytes; the server's sandboxed Chromium (server/pdf-renderer.ts) in practice. */
export interface Renderer {
  pdf(html: string, box: { widthMm: number; heightMm: number }): Promise<Buffer>;
  png(html: string, box: { widthMm: number; heightMm: number }): Promise<Buffer>;
}

export function verificationPath(publicId: string) {
  return `/certificates/verify/${publicId}`;
}

export function verificationUrl(env: Pick<CertificateEnv, "origin">, publicId: string) {
  return `${env.origin}${verificationPath(publicId)}`;
}

function fileUri(db: TenantConn, env: CertificateEnv, fileId: number | null) {
  if (!fileId) return null;
  const file = getFile(db, fileId);
  if (!file) return null;
  return imageDataUri(file, fileOnDisk(env.dataDir, env.organization.id, file));
}

function logoUri(db: TenantConn, env: CertificateEnv) {
  const match = env.organization.logo ? /^file:(\d+)$/.exec(env.organization.logo) : null;
  return match ? fileUri(db, env, Number(match[1])) : null;
}

/** "Valid until {expiry_date}" in the certificate's language (recertification, issue 34). */
async function expiryLine(language: string) {
  const t = await getFixedT(isLanguage(language) ? language : FALLBACK_LANGUAGE);
  return t("recertification.certificate.validUntil");
}

async function page(
  db: TenantConn,
  env: CertificateEnv,
  layout: CertificateLayout,
  values: Record<Placeholder, string>,
  language: string,
  { expiryLine: withExpiryLine = true }: { expiryLine?: boolean } = {},
): Promise<CertificatePage> {
  return {
    layout,
    values,
    backgroundUri: fileUri(db, env, layout.backgroundFileId),
    logoUri: layout.showLogo ? logoUri(db, env) : null,
    qr: layout.showQr ? await qrSvg(values.verification_url) : null,
    language,
    expiryLine: withExpiryLine && values.expiry_date ? await expiryLine(language) : null,
  };
}

/** An issued certificate's page, from its snapshot. */
export async function certificatePage(db: TenantConn, env: CertificateEnv, certificate: Certificate) {
  const language = certificate.locale || env.organization.language || "en";
  const url = verificationUrl(env, certificate.publicId);
  const values: Record<Placeholder, string> = {
    learner_name: certificate.learnerName,
    course_title: certificate.courseTitle,
    completion_date: certificateDate(certificate.issuedAt, language),
    score: certificate.score === null ? "–" : `${certificate.score}%`,
    organization_name: env.organization.name,
    certificate_id: certificate.publicId,
    verification_url: url,
    expiry_date: certificate.expiresOn ? certificateDay(certificate.expiresOn, language) : "",
  };
  return page(db, env, certificate.layout, values, language);
}

/** A template filled with sample data, for the live preview. */
export async function previewPage(
  db: TenantConn,
  env: CertificateEnv,
  layout: CertificateLayout,
  sample: { learnerName: string; courseTitle: string; language: string },
) {
  const publicId = "PREV-IEW0-0000";
  const values: Record<Placeholder, string> = {
    learner_name: sample.learnerName,
    course_title: sample.courseTitle,
    completion_date: certificateDate(new Date(), sample.language),
    score: "92%",
    organization_name: env.organization.name,
    certificate_id: publicId,
    verification_url: verificationUrl(env, publicId),
    // A sample a year on, for a block that uses it; the line added to expiring certificates whose
    // template has no such block is not drawn here, as most courses never expire.
    expiry_date: certificateDay(addMonths(new Date().toISOString().slice(0, 10), 12), sample.language),
  };
  return page(db, env, layout, values, sample.language, { expiryLine: false });
}

/**
 * Why a preview was not drawn: the words the admin reads (a translation key), the /api's error code, and, when
 * load stopped it (every renderer busy and the queue full, or a render slowed by the others), the seconds after
 * which to try again (`Retry-After` on the 503).
 */
export interface PreviewFailure {
  message: "certificates.errors.renderer" | "certificates.errors.busy" | "certificates.errors.backgroundTooHeavy";
  code: "renderer_unavailable" | "render_timeout";
  retryAfterSeconds: number | null;
}

/** How long a preview refused under load asks the admin's browser (or an /api client) to wait. */
export const PREVIEW_RETRY_AFTER_SECONDS = 5;

/**
 * The failure a renderer's error means for a preview, or null when it is not one a preview expects (a bug:
 * let it be thrown). A timeout blames the background image only when the page has one, the renderer was
 * drawing the page (not still starting its browser) and had nothing else to do: under load every render
 * is slow, and a template without a background has no image to make smaller. Read by name and fields, as
 * server/pdf-renderer.ts's errors carry them (`RenderTimeoutError`: `stage`, `busy`; `RendererBusyError`: too many
 * renders waiting).
 */
export function previewFailure(error: unknown, page: { backgroundUri: string | null }): PreviewFailure | null {
  const e = error as { name?: string; stage?: string; busy?: boolean } | null;
  if (e?.name === "RendererUnavailableError")
    return { message: "certificates.errors.renderer", code: "renderer_unavailable", retryAfterSeconds: null };
  const busy = { message: "certificates.errors.busy", code: "render_timeout", retryAfterSeconds: PREVIEW_RETRY_AFTER_SECONDS } as const;
  if (e?.name === "RendererBusyError") return busy;
  if (e?.name !== "RenderTimeoutError") return null;
  const backgroundToBlame = page.backgroundUri !== null && e.stage === "drawing" && e.busy === false;
  return backgroundToBlame ? { message: "certificates.errors.backgroundTooHeavy", code: "render_timeout", retryAfterSeconds: null } : busy;
}

/** The live preview as a PNG, or why it could not be drawn. */
export async function renderPreviewPng(
  db: TenantConn,
  env: CertificateEnv,
  renderer: Renderer,
  layout: CertificateLayout,
  sample: { learnerName: string; courseTitle: string; language: string },
): Promise<{ png: Buffer } | { failure: PreviewFailure }> {
  const built = await previewPage(db, env, layout, sample);
  try {
    return { png: await renderer.png(certificateHtml(built), pageBox(layout)) };
  } catch (error) {
    const failure = previewFailure(error, built);
    if (!failure) throw error;
    return { failure };
  }
}

/** Writes bytes so that readers see the whole file or none: a temporary name, then a rename. */
export function writeFileAtomic(file: string, bytes: Buffer) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${crypto.randomBytes(6).toString("hex")}.tmp`;
  try {
    fs.writeFileSync(temporary, bytes, { mode: 0o600, flag: "wx" });
    fs.renameSync(temporary, file);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
}

/**
 * The render job's work: the certificate's PDF from its snapshot, stored as a file of the organization
 * (so downloads go through the signed-address mechanism). Cached: a certificate with a PDF is not
 * rendered again. Safe to run twice (a restart during a job): the second run finds the PDF.
 */
export async function renderCertificatePdf(db: TenantConn, env: CertificateEnv, renderer: Renderer, certificateId: number) {
  const certificate = getCertificate(db, certificateId);
  if (!certificate) return { certificateId, skipped: "missing" };
  if (certificate.pdfFileId && getFile(db, certificate.pdfFileId)) return { certificateId, fileId: certificate.pdfFileId, cached: true };
  const built = await certificatePage(db, env, certificate);
  const bytes = await renderer.pdf(certificateHtml(built), pageBox(certificate.layout));
  const relative = path.join("certificates", `${crypto.randomBytes(16).toString("hex")}.pdf`);
  const root = path.join(tenantFolder(env.dataDir, env.organization.id), "files");
  const target = path.join(root, relative);
  writeFileAtomic(target, bytes);
  try {
    const fileId = db.transaction((tx) => {
      const row = tx
        .insert(files)
        .values({
          kind: "document",
          mime: "application/pdf",
          name: pdfName(certificate),
          size: bytes.length,
          sha256: crypto.createHash("sha256").update(bytes).digest("hex"),
          path: relative,
          uploadedBy: null,
        })
        .returning()
        .get();
      setCertificatePdf(tx, certificate.id, row.id);
      return row.id;
    });
    return { certificateId, fileId };
  } catch (error) {
    fs.rmSync(target, { force: true });
    throw error;
  }
}
