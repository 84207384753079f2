import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { loadAnalytics } from "~/screens/analytics.server";
import { KPIS } from "~/utils/analytics-periods";
import { csvResponse, toCsv } from "~/utils/csv.server";

const tableSchema = z.enum([...KPIS, "courses"]);

/**
 * `/dashboard/analytics/export?table=…` plus the page's query: every table the analytics page shows, as
 * CSV (read:analytics). A bad query or table is a 400, never a file with wrong numbers.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const table = tableSchema.safeParse(new URL(request.url).searchParams.get("table"));
  const data = await loadAnalytics(request, context, { courses: table.success && table.data === "courses" });
  if (!table.success || data.errors) throw new Response("Bad Request", { status: 400 });
  const { from, to } = data.query.period;
  const name = `${table.data}-${from}-${to}-${data.query.group}.csv`;
  if (table.data === "courses") {
    const header = ["course_id", "title", "completions", "watch_minutes", "downloads", "quiz_attempts", "quiz_passes", "quiz_pass_rate"];
    return csvResponse(
      name,
      toCsv(
        header,
        data.courses.map((r) => header.map((h) => r[h as keyof typeof r])),
      ),
    );
  }
  const report = data.reports[table.data];
  const header = [
    "bucket",
    "from",
    "to",
    "value",
    ...(report.previous ? ["previous_bucket", "previous_from", "previous_to", "previous_value"] : []),
  ];
  const rows = (report.current?.buckets ?? []).map((b, i) => {
    const p = report.previous?.buckets[i];
    return [b.key, b.from, b.to, b.value, ...(report.previous ? [p?.key, p?.from, p?.to, p?.value] : [])];
  });
  return csvResponse(name, toCsv(header, rows));
}
