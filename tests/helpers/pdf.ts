import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The text of a PDF, through poppler's pdftotext (what a reader or a search engine would see). */
export function pdfText(bytes: Buffer) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-pdf-"));
  try {
    const file = path.join(dir, "doc.pdf");
    fs.writeFileSync(file, bytes);
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
