/** A size as people read it in a message: "5 MB", "64 KB", "1 GB" (binary units, as the limits are set). */
export function formatBytes(bytes: number) {
  if (bytes >= 1024 * 1024 * 1024) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}
