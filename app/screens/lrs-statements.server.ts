import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { statementsAfter, browseStatements, storedStatement, verbsUsed, type BrowseFilters } from "~/models/xapi/statement-browse.server";
import { isAbsoluteIri } from "~/models/xapi/agents";
import { UUID } from "~/models/xapi/statement-schema";
import { tenantTimeZone } from "~/models/time-zone.server";
import { csvCell } from "~/utils/csv.server";
import { localMidnight } from "~/utils/calendar";
import { withManagedOrganization, type Area } from "~/kernel/manage.server";

/**
 * The organization's statements for its admins (issue 47, "Readers"): filtered by actor, verb, activity and days
 * (the organization's own), newest first, fifty at a time; one statement's JSON; all of them as CSV, streamed.
 * Who may: `read:xapi` (docs/permissions.md).
 */
const DAY = /^\d{4}-\d\d-\d\d$/;
const querySchema = z.object({
  actor: z.string().trim().max(500).optional(),
  verb: z
    .string()
    .trim()
    .max(2000)
    .refine((v) => v === "" || isAbsoluteIri(v), "lrs.statements.errors.verb")
    .optional(),
  activity: z
    .string()
    .trim()
    .max(2000)
    .refine((v) => v === "" || isAbsoluteIri(v), "lrs.statements.errors.activity")
    .optional(),
  from: z
    .string()
    .refine((v) => v === "" || DAY.test(v), "lrs.statements.errors.day")
    .optional(),
  until: z
    .string()
    .refine((v) => v === "" || DAY.test(v), "lrs.statements.errors.day")
    .optional(),
  before: z.coerce.number().int().positive().optional(),
});
export type StatementsQuery = z.infer<typeof querySchema>;

const KEYS = ["actor", "verb", "activity", "from", "until", "before"] as const;

/** The query of the address, or its errors (message keys) with the filters left empty. */
function readQuery(url: URL) {
  const raw = Object.fromEntries(KEYS.flatMap((k) => (url.searchParams.has(k) ? [[k, url.searchParams.get(k)!]] : [])));
  const parsed = querySchema.safeParse(raw);
  if (parsed.success) return { query: parsed.data, errors: null };
  return { query: {} as StatementsQuery, errors: [...new Set(parsed.error.issues.map((i) => i.message))] };
}

function filtersOf(query: StatementsQuery, timeZone: string): BrowseFilters {
  const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return {
    actor: query.actor || undefined,
    verb: query.verb || undefined,
    activity: query.activity || undefined,
    from: query.from ? localMidnight(query.from, timeZone) : undefined,
    until: query.until ? localMidnight(dayAfter(query.until), timeZone) : undefined,
  };
}

export function statementsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:xapi" }, ({ db, base }) => {
      const { query, errors } = readQuery(new URL(request.url));
      const timeZone = tenantTimeZone(db);
      const page = browseStatements(db, filtersOf(query, timeZone), query.before);
      return {
        base,
        query,
        errors,
        timeZone,
        verbs: verbsUsed(db),
        statements: page.statements.map((s) => ({ ...s, stored: s.stored.toISOString() })),
        next: page.next,
      };
    });
}

export function statementLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:xapi" }, ({ db, base }) => {
      const id = params.statementId ?? "";
      const row = UUID.test(id) ? storedStatement(db, id) : null;
      if (!row) throw new Response("Not Found", { status: 404 });
      return { base, id: id.toLowerCase(), voided: row.voided, json: JSON.stringify(JSON.parse(row.json), null, 2) };
    });
}

const CSV_HEADER = ["id", "stored", "actor", "verb", "object", "object_type", "score_scaled", "success", "completion", "voided"];

/**
 * Every statement the filters select, oldest first, as CSV written a chunk at a time as the client reads: each
 * chunk takes the organization's database from the pool for its own length (the request's lease may be over).
 */
export function statementsCsvLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "read:xapi" }, ({ db, organization }) => {
      const { query, errors } = readQuery(new URL(request.url));
      if (errors) throw new Response("Bad Request", { status: 400 });
      const filters = filtersOf(query, tenantTimeZone(db));
      const encoder = new TextEncoder();
      const line = (cells: unknown[]) => `${cells.map(csvCell).join(",")}\r\n`;
      let after: number | null = 0;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(`\uFEFF${line(CSV_HEADER)}`));
        },
        pull(controller) {
          if (after === null) return controller.close();
          const chunk = context.platform.tenants.withTenant(organization.id, (tenant) => statementsAfter(tenant, filters, after!));
          after = chunk.last;
          const text = chunk.statements.map((s) =>
            line([
              s.id,
              s.stored.toISOString(),
              s.actor,
              s.verb,
              s.object,
              s.objectType,
              s.score ?? "",
              s.success ?? "",
              s.completion ?? "",
              s.voided,
            ]),
          );
          controller.enqueue(encoder.encode(text.join("")));
        },
      });
      return new Response(body, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": 'attachment; filename="statements.csv"',
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "no-store",
        },
      });
    });
}
