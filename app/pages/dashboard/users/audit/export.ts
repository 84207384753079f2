import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminAuditCsv } from "~/screens/admin-audit-export.server";

// The audit of what admins did as CSV, with the screen's search and filters (issue 50).
export const loader = (args: LoaderFunctionArgs) => adminAuditCsv(args);
