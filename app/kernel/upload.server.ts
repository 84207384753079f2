import type { AppLoadContext } from "@remix-run/node";
import type { TFunction } from "i18next";
import { UploadError } from "../models/file.server";
import { formatBytes } from "../utils/bytes";

export function uploadLimits(context: AppLoadContext) {
  return { maxBytes: context.platform.config.FILE_MAX_BYTES, imageMaxBytes: context.platform.config.IMAGE_MAX_BYTES };
}


/**
 * The HTTP status and translated message of a refused upload. A file refused for its size names the limit it
 * passed (an image's, or any file's), which the error carries; `limit` is the one to name otherwise.
 */
export function uploadProblem(error: UploadError, t: TFunction, limit: number) {
  const status = error.problem === "too_large" ? 413 : error.problem === "type_not_allowed" ? 415 : 422;
  return { status, message: t(`files.${error.problem}`, { limit: formatBytes(error.limit ?? limit) }) };
}
