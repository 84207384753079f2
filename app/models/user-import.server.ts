import { unstable_createMemoryUploadHandler, unstable_parseMultipartFormData } from "@remix-run/node";
import { CsvError, parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { TenantConn, TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { groupMembers, users, userImports, type UserImport } from "../../db/tenant";
import type { UserImportServices } from "../../server/services";
import { sendInvitation } from "./auth/mail.server";
import { organizationRealm } from "./auth/realm.server";
import { normalizeEmail } from "./auth/secrets.server";
import { issueInvitation } from "./auth/tokens.server";
import { assignJoined } from "./assignment-membership.server";
import type { JobContext } from "./clone.server";
import { getGroup } from "./group.server";
import { recomputeAllRuleGroups } from "./group-rule-members.server";
import { JobError } from "./job.server";
import { getOrganization } from "./organization.server";
import { getUserSettings } from "./user-settings.server";
import { resources } from "../utils/i18n.server";
import { LANGUAGES } from "../utils/i18n";

/**
 * CSV user import (docs/product.md §5 "User import file: csv, columns in order first name, last name, phone, email;
 * an empty field is left blank"; docs/product.md §7 `POST users/import/{id}`). A first line of column titles may name
 * the columns in another order. A file is checked whole before anything is written — every problem named
 * by its line — then imported all-or-nothing in one transaction by a background job, and invitations go
 * out after the commit (docs/decisions/017-groups-and-import.md).
 */

/** The largest file taken (about 200,000 rows of ordinary names and addresses). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;
export const PREVIEW_ROWS = 10;

export interface ImportRow {
  line: number;
  firstName: string;
  lastName: string;
  phone: string | null;
  email: string;
}

/** A problem with the file: a translation key under `import.errors`, the line it is on (null: the whole file). */
export interface ImportProblem {
  line: number | null;
  code: "notCsv" | "empty" | "tooLarge" | "header" | "columns" | "email" | "formula" | "html" | "tooLong" | "duplicateInFile" | "exists";
  params?: Record<string, string | number>;
}

export interface CheckedFile {
  rows: ImportRow[];
  problems: ImportProblem[];
  hasHeader: boolean;
}

const emailSchema = z.string().email().max(254);

/** A person's fields, as a file's columns hold them. */
type Column = "firstName" | "lastName" | "phone" | "email";

/** The spec's order: the columns of a file without a line of titles. */
const SPEC_ORDER: readonly Column[] = ["firstName", "lastName", "phone", "email"];

/** The longest text each field takes (as the user form does). */
const MAX_LENGTH: Record<Column, number> = { firstName: 100, lastName: 100, phone: 40, email: 254 };

/** A title as compared: lower case, without spaces, dashes, underscores or dots ("E-mail" = "email" = "e_mail"). */
function titleKey(title: string) {
  return title
    .normalize("NFC")
    .toLocaleLowerCase()
    .replace(/[\s_.-]+/g, "");
}

/**
 * The column titles recognised, whatever their order: the /api's field names (first_name, last_name, phone,
 * email, as in the OpenAPI example), the titles the import screen shows in each language (its sample's
 * first line, `import.sampleHeader`, in the spec's order) and a few common English ones.
 */
const TITLES: ReadonlyMap<string, Column> = (() => {
  const titles = new Map<string, Column>();
  const add = (title: string, column: Column) => titles.set(titleKey(title), column);
  SPEC_ORDER.forEach((column) => add(column, column));
  for (const [column, names] of Object.entries({
    firstName: ["first_name", "first name", "given name"],
    lastName: ["last_name", "last name", "surname", "family name"],
    phone: ["phone", "phone number", "telephone", "mobile"],
    email: ["email", "email address", "mail"],
  }) as [Column, string[]][]) {
    for (const name of names) add(name, column);
  }
  for (const language of LANGUAGES) {
    const sample = (resources[language].common.import as { sampleHeader?: string } | undefined)?.sampleHeader ?? "";
    sample.split(",").forEach((title, i) => {
      if (i < SPEC_ORDER.length) add(title, SPEC_ORDER[i]);
    });
  }
  return titles;
})();

/**
 * What the first line is: column titles (and the columns they give), titles that cannot be read (some are
 * known, but not as one column each), or a person (null). A line with an address in it is always a person.
 * Titles of the file's own in the spec's order are read in that order, as before titles were matched: a
 * known title in its spec place, or a fourth title that says mail or post ("E-mail address", "E-post").
 */
function headerOf(cells: string[]): { columns: readonly Column[] } | "unreadable" | null {
  if (cells.some((c) => c.includes("@"))) return null;
  const named = cells.map((c) => TITLES.get(titleKey(c)));
  if (cells.length === 4 && named.every((c) => c !== undefined) && new Set(named).size === 4) return { columns: named as Column[] };
  const inSpecOrder = cells.length === 4 && named.every((c, i) => c === undefined || c === SPEC_ORDER[i]);
  if (inSpecOrder && (named.some((c) => c !== undefined) || /mail|post/i.test(cells[3]))) return { columns: SPEC_ORDER };
  return named.some((c) => c !== undefined) ? "unreadable" : null;
}

/**
 * A cell a spreadsheet would run as a formula (CSV injection: `=`, `+`, `-`, `@`, tab, carriage return
 * at the start). A phone number such as `+45 12 34 56 78` is a number, not a formula.
 */
function isFormula(value: string, column: Column) {
  if (!/^[=+\-@\t\r]/.test(value)) return false;
  return !(column === "phone" && /^\+?[\d\s().-]+$/.test(value));
}

/** Text that reads as markup: refused rather than stored, so it can never reach a page or an e-mail as HTML. */
function isHtml(value: string) {
  return /[<>]/.test(value);
}

/** The delimiter the file uses: the one of `,` `;` (spreadsheets in Danish or Polish) or tab most seen on line 1. */
function delimiterOf(text: string) {
  const first = text.slice(0, text.indexOf("\n") === -1 ? text.length : text.indexOf("\n"));
  const counts = [",", ";", "\t"].map((d) => [d, first.split(d).length - 1] as const);
  return counts.reduce((best, c) => (c[1] > best[1] ? c : best))[0];
}

function decode(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null; // binary (a spreadsheet file, an image) — not CSV
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Reads and checks a file. `existing(email)` tells whether the address already belongs to someone in this
 * organization (only this organization: another tenant's people are not seen and do not matter here).
 */
export function checkCsv(bytes: Uint8Array, existing: (email: string) => boolean): CheckedFile {
  const empty = { rows: [], hasHeader: false };
  if (bytes.byteLength > IMPORT_MAX_BYTES) return { ...empty, problems: [{ line: null, code: "tooLarge", params: { limit: "20 MB" } }] };
  const text = decode(bytes);
  if (text === null) return { ...empty, problems: [{ line: null, code: "notCsv" }] };
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      bom: true,
      delimiter: delimiterOf(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }) as never;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      return { ...empty, problems: [{ line: typeof line === "number" ? line : null, code: "notCsv" }] };
    }
    throw error;
  }
  if (records.length === 0) return { ...empty, problems: [{ line: null, code: "empty" }] };
  const header = headerOf(records[0].record);
  if (header === "unreadable") {
    return {
      ...empty,
      problems: [{ line: records[0].info.lines, code: "header", params: { titles: records[0].record.join(", ").slice(0, 200) } }],
    };
  }
  const hasHeader = header !== null;
  const columns = header?.columns ?? SPEC_ORDER;
  const rows: ImportRow[] = [];
  const problems: ImportProblem[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of hasHeader ? records.slice(1) : records) {
    const line = info.lines;
    if (record.length !== 4) {
      problems.push({ line, code: "columns", params: { count: record.length } });
      continue;
    }
    const cell = Object.fromEntries(columns.map((column, i) => [column, record[i]])) as Record<Column, string>;
    const bad = SPEC_ORDER.map((column) => cellProblem(cell[column], column)).find((code) => code !== null);
    if (bad) {
      problems.push({ line, code: bad });
      continue;
    }
    const { firstName, lastName, phone, email: rawEmail } = cell;
    if (!emailSchema.safeParse(rawEmail).success) {
      problems.push({ line, code: "email", params: { value: rawEmail.slice(0, 80) } });
      continue;
    }
    const email = normalizeEmail(rawEmail);
    const earlier = seen.get(email);
    if (earlier !== undefined) {
      problems.push({ line, code: "duplicateInFile", params: { email, first: earlier } });
      continue;
    }
    seen.set(email, line);
    if (existing(email)) {
      problems.push({ line, code: "exists", params: { email } });
      continue;
    }
    rows.push({ line, firstName, lastName, phone: phone || null, email });
  }
  if (rows.length === 0 && problems.length === 0) problems.push({ line: null, code: "empty" });
  return { rows, problems, hasHeader };
}

/** What is wrong with one cell, if anything: a formula, markup, or more text than its field takes. */
function cellProblem(value: string, column: Column): "formula" | "html" | "tooLong" | null {
  if (isFormula(value, column)) return "formula";
  if (isHtml(value)) return "html";
  if (value.length > MAX_LENGTH[column]) return "tooLong";
  return null;
}

/** The organization's addresses, read once for a whole file. */
export function existingEmails(db: TenantConn) {
  const all = new Set(
    db
      .select({ email: users.email })
      .from(users)
      .all()
      .map((u) => u.email),
  );
  return (email: string) => all.has(email);
}

/** The uploaded file of a form (field `file`) or a raw `text/csv` body. */
export async function readCsvUpload(
  request: Request,
): Promise<{ fileName: string; bytes: Uint8Array; fields: FormData | null } | { problem: ImportProblem }> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > IMPORT_MAX_BYTES + 64 * 1024) return { problem: { line: null, code: "tooLarge", params: { limit: "20 MB" } } };
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data")) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    return bytes.byteLength ? { fileName: "import.csv", bytes, fields: null } : { problem: { line: null, code: "empty" } };
  }
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(request, unstable_createMemoryUploadHandler({ maxPartSize: IMPORT_MAX_BYTES }));
  } catch (error) {
    if ((error as Error)?.name === "MaxPartSizeExceededError")
      return { problem: { line: null, code: "tooLarge", params: { limit: "20 MB" } } };
    return { problem: { line: null, code: "notCsv" } };
  }
  const file = formData.get("file");
  if (!file || typeof file === "string" || file.size === 0) return { problem: { line: null, code: "empty" } };
  return { fileName: file.name.slice(0, 200) || "import.csv", bytes: new Uint8Array(await file.arrayBuffer()), fields: formData };
}

export { importOptionsSchema } from "./forms/users";

/** Keeps a checked file (no problems) waiting for the admin's confirmation. */
export function storeImport(
  db: TenantConn,
  input: {
    fileName: string;
    bytes: Uint8Array;
    rowCount: number;
    groupId: number | null;
    sendInvitations: boolean;
    createdBy: number | null;
  },
) {
  if (input.groupId !== null && !getGroup(db, input.groupId)) return null;
  return db
    .insert(userImports)
    .values({
      fileName: input.fileName,
      content: Buffer.from(input.bytes).toString("utf8"),
      rowCount: input.rowCount,
      groupId: input.groupId,
      sendInvitations: input.sendInvitations,
      createdBy: input.createdBy,
    })
    .returning()
    .get();
}

export function getImport(db: TenantConn, id: number) {
  return db.select().from(userImports).where(eq(userImports.id, id)).get();
}

/** The preview: the first rows as they will be imported (the file is read again: it is the truth). */
export function previewOf(db: TenantConn, userImport: UserImport) {
  const checked = checkCsv(Buffer.from(userImport.content, "utf8"), existingEmails(db));
  return { rows: checked.rows.slice(0, PREVIEW_ROWS), total: checked.rows.length, problems: checked.problems };
}

export function markImportQueued(db: TenantConn, id: number, jobId: number) {
  db.update(userImports).set({ status: "queued", jobId }).where(eq(userImports.id, id)).run();
}

function setImportStatus(db: TenantConn, id: number, status: UserImport["status"]) {
  db.update(userImports).set({ status }).where(eq(userImports.id, id)).run();
}

const CHUNK = 2_000;

/**
 * The import job (`users.import`, payload `{ import_id }`): checks the file again (someone may have been
 * added since the preview), then writes every row, the target and default groups and the rule groups in
 * ONE transaction — a failure anywhere leaves nothing behind — and only then mails the invitations.
 * Progress: checking 0–30 %, writing 30–50 %, invitations 50–100 %.
 */
export async function importUsersJob({ db, organizationId, job, progress, pause }: JobContext, platform: UserImportServices) {
  const userImport = getImport(db, Number(job.payload.import_id));
  if (!userImport) throw new JobError("The import no longer exists.");
  setImportStatus(db, userImport.id, "running");
  try {
    const checked = checkCsv(Buffer.from(userImport.content, "utf8"), existingEmails(db));
    progress(30);
    await pause();
    if (checked.problems.length) {
      const first = checked.problems[0];
      // The screen translates this: `import:<line>:<code>`.
      throw new JobError(`import:${first.line ?? ""}:${first.code}`);
    }
    const settings = getUserSettings(db);
    const groupIds = [...new Set([...settings.defaultGroupIds, ...(userImport.groupId ? [userImport.groupId] : [])])];
    const created = writeRows(db, checked.rows, { language: settings.defaultLanguage, groupIds });
    progress(50);
    await pause();
    let invited = 0;
    if (userImport.sendInvitations)
      invited = await inviteAll(db, platform, organizationId, created, (share) => progress(50 + share * 50), pause);
    setImportStatus(db, userImport.id, "done");
    return { imported: created.length, invited, group_id: userImport.groupId };
  } catch (error) {
    setImportStatus(db, userImport.id, "failed");
    throw error;
  }
}

/** Every row in one transaction; returns the new people's ids. */
export function writeRows(db: TenantConn, rows: ImportRow[], { language, groupIds }: { language: string | null; groupIds: number[] }) {
  return db.transaction((tx) => {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const values = rows
        .slice(i, i + CHUNK)
        .map((r) => ({ email: r.email, firstName: r.firstName, lastName: r.lastName, phone: r.phone, role: "learner" as const, language }));
      // Ten columns a row keeps each statement under SQLite's limit of 32,766 parameters.
      for (let j = 0; j < values.length; j += 500) {
        ids.push(
          ...tx
            .insert(users)
            .values(values.slice(j, j + 500))
            .returning({ id: users.id })
            .all()
            .map((r) => r.id),
        );
      }
    }
    for (const groupId of groupIds) {
      for (let j = 0; j < ids.length; j += 5_000) {
        tx.insert(groupMembers)
          .values(ids.slice(j, j + 5_000).map((userId) => ({ groupId, userId, source: "manual" as const })))
          .onConflictDoNothing()
          .run();
      }
      assignJoined(tx, groupId, ids);
    }
    recomputeAllRuleGroups(tx);
    return ids;
  });
}

async function inviteAll(
  db: TenantDb,
  platform: UserImportServices,
  organizationId: number,
  ids: number[],
  share: (s: number) => void,
  pause: () => Promise<void>,
) {
  const organization: Organization | undefined = getOrganization(platform.db, organizationId);
  if (!organization) return 0;
  const realm = organizationRealm(db, organization);
  let sent = 0;
  for (let i = 0; i < ids.length; i++) {
    const person = db.select({ email: users.email }).from(users).where(eq(users.id, ids[i])).get();
    const issued = person ? issueInvitation(realm, person.email) : null;
    if (issued) {
      try {
        await sendInvitation(platform, realm, issued.person, issued.token);
        sent++;
      } catch (error) {
        platform.log.error({ error: String(error) }, "invitation mail failed");
      }
    }
    if (i % 50 === 49) {
      share((i + 1) / ids.length);
      await pause();
    }
  }
  return sent;
}
