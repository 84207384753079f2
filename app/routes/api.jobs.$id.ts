import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getJob, jobView } from "~/models/job.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";

/** `GET /api/jobs/{id}`: a background job's status, progress and result (those who may write courses). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  if (!context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "write:course" });
  const job = /^\d{1,15}$/.test(params.id ?? "") ? getJob(context.db, Number(params.id)) : undefined;
  return job ? apiOk(jobView(job)) : apiNotFound(request, context);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["GET"]);
}
