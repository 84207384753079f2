import type { AppLoadContext } from "@remix-run/node";
import type { TFunction } from "i18next";
import type { TenantConn } from "../../db/open";
import type { FileKind, StoredFile } from "../../db/tenant";
import {
  CAPTION_FILE_MAX_BYTES,
  receiveUpload,
  storeUpload,
  UploadError,
  type UploadLimits,
  type UploadProblem,
} from "../models/file.server";
import { formatBytes } from "../utils/bytes";
import { getFixedT } from "../utils/i18n.server";
import { languageFor } from "../utils/preferences.server";

/**
 * The one way a page takes a file (the organization's branding, a certificate template's background, a course's
 * files, a SCORM package): `handleUpload` streams the multipart body to a temporary file under the
 * organization's folder, cut off the moment it passes the limit of what this use takes; the file's type is read
 * from its first bytes (never its name or the browser's Content-Type) and must be one this use allows; images are
 * re-encoded; the file is moved into place with one rename, in the same transaction as its row
 * (app/models/file.server.ts). A refusal comes back translated, naming the limit that applied.
 */

export function uploadLimits(context: AppLoadContext): UploadLimits {
  return { maxBytes: context.platform.config.FILE_MAX_BYTES, imageMaxBytes: context.platform.config.IMAGE_MAX_BYTES };
}

/** The most a file of this kind may be: an image's limit is its own, every other kind takes any file's. */
export function limitForKind(kind: FileKind, limits: UploadLimits) {
  if (kind === "caption") return Math.min(CAPTION_FILE_MAX_BYTES, limits.maxBytes);
  return kind === "image" ? limits.imageMaxBytes : limits.maxBytes;
}

/**
 * The most a use's file may be while it streams, before its type is known: the largest limit among the kinds it
 * allows (a use that takes only images is cut off at the image limit, and says so).
 */
export function streamLimit(allowed: readonly FileKind[] | undefined, limits: UploadLimits) {
  if (!allowed?.length) return limits.maxBytes;
  return Math.max(...allowed.map((kind) => limitForKind(kind, limits)));
}

/**
 * The HTTP status and translated message of a refused upload. A file refused for its size names the limit it
 * passed, which the error carries; `limit` is the one to name when it does not.
 */
export function uploadProblem(error: UploadError, t: TFunction, limit = 0) {
  const status = error.problem === "too_large" ? 413 : error.problem === "type_not_allowed" ? 415 : 422;
  return { status, message: t(`files.${error.problem}`, { limit: formatBytes(error.limit ?? limit) }) };
}

export interface UploadRefusal {
  status: number;
  /** Translated, in the language of the person who sent it. */
  message: string;
  code: UploadProblem;
}

export interface ReceivedUpload {
  /** The form's other fields (the file's own field holds a reference to the temporary file). */
  fields: FormData;
  /** The temporary file of the use's field, streamed and limited but not yet checked (a SCORM package is unpacked from it). */
  file(): { tempPath: string; name: string; size: number } | undefined;
  /** Checks the file (type from its bytes, allowed for this use, its kind's limit), re-encodes an image, and stores it. */
  store(db: TenantConn, uploadedBy: number | null): Promise<StoredFile>;
}

export interface UploadUse {
  organizationId: number;
  /** The form field that carries the file. */
  field: string;
  /** The kinds of file this use takes (by their bytes); every kind when left out. */
  allowed?: readonly FileKind[];
  /** The translator of the reply; the sender's language when left out. */
  t?: TFunction;
}

/**
 * Takes one upload: `accept` gets the received form and stores the file (or not: the branding form removes an
 * image without sending one); `refuse` answers a file that was too large, of a type this use does not take,
 * empty or missing. The temporary files are gone when either has answered.
 */
export async function handleUpload<T>(
  request: Request,
  context: AppLoadContext,
  use: UploadUse,
  accept: (upload: ReceivedUpload) => Promise<T> | T,
  refuse: (refusal: UploadRefusal) => Promise<T> | T,
): Promise<T> {
  const limits = uploadLimits(context);
  const dataDir = context.platform.dataDir;
  let received: Awaited<ReturnType<typeof receiveUpload>> | undefined;
  try {
    received = await receiveUpload(request, {
      dataDir,
      organizationId: use.organizationId,
      limits: { ...limits, maxBytes: streamLimit(use.allowed, limits) },
    });
    const { formData, pending } = received;
    const file = () => {
      const key = String(formData.get(use.field) ?? "").split(":")[1];
      return key ? pending.get(key) : undefined;
    };
    return await accept({
      fields: formData,
      file,
      store: (db, uploadedBy) =>
        storeUpload(db, { dataDir, organizationId: use.organizationId, pending: file(), limits, allowed: use.allowed, uploadedBy }),
    });
  } catch (error) {
    if (!(error instanceof UploadError)) throw error;
    const t = use.t ?? (await getFixedT(await languageFor(request, context)));
    const { status, message } = uploadProblem(error, t, streamLimit(use.allowed, limits));
    return refuse({ status, message, code: error.problem });
  } finally {
    received?.cleanup();
  }
}
