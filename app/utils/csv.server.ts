/**
 * CSV for exports. A cell that begins with = + - @ (or a tab or carriage return) would be run as a
 * formula by spreadsheet programs (OWASP "CSV injection"): such cells get a leading apostrophe.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: string[], rows: unknown[][]) {
  return [header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}

export function csvResponse(filename: string, body: string) {
  return csvStreamResponse(filename, `\uFEFF${body}`);
}

/** A CSV download: a body made at once, or a stream written as the client reads (which writes its own byte-order mark). */
export function csvStreamResponse(filename: string, body: string | ReadableStream<Uint8Array>) {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "no-store",
    },
  });
}
