import type { AppLoadContext } from "@remix-run/node";
import type { TFunction } from "i18next";
import { UploadError } from "../models/file.server";

export function uploadLimits(context: AppLoadContext) {
  return { maxBytes: context.platform.config.FILE_MAX_BYTES, imageMaxBytes: context.platform.config.IMAGE_MAX_BYTES };
}

export function formatBytes(bytes: number) {
  if (bytes >= 1024 * 1024 * 1024) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/** The HTTP status and translated message of a refused upload. */
export function uploadProblem(error: UploadError, t: TFunction, limit: number) {
  const status = error.problem === "too_large" ? 413 : error.problem === "type_not_allowed" ? 415 : 422;
  return { status, message: t(`files.${error.problem}`, { limit: formatBytes(limit) }) };
}
