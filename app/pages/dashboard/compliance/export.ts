import type { LoaderFunctionArgs } from "@remix-run/node";
import { complianceCsv } from "~/screens/compliance.server";

/**
 * `/dashboard/compliance/export` plus the people list's filters: every person and course matching them, as
 * CSV (read:analytics; a group admin gets their groups' current members, as on the /api).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return complianceCsv(request, context);
}
