import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getCourse } from "~/models/course.server";
import { jobView } from "~/models/job.server";
import { apiMethodNotAllowed, apiNotFound, apiOk } from "~/utils/api.server";
import { requireApiAuth } from "~/kernel/auth.server";
import { getFixedT } from "~/utils/i18n.server";
import { isLanguage } from "~/utils/i18n";

/**
 * `POST /api/courses/{id}/clone`: starts the copy in the background (spec §4: it may take up to about
 * ten minutes) and answers 202 with the job; `GET /api/jobs/{id}` follows it.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return apiMethodNotAllowed(request, context, ["POST"]);
  if (!context.organization || !context.db) return apiNotFound(request, context);
  await requireApiAuth(request, context, { capability: "write:course" });
  const course = /^\d{1,15}$/.test(params.id ?? "") ? getCourse(context.db, Number(params.id)) : undefined;
  if (!course) return apiNotFound(request, context);
  const language = context.organization.language;
  const t = await getFixedT(isLanguage(language) ? language : "en");
  const job = context.platform.jobs.enqueue(context.organization.id, context.db, "course.clone", {
    course_id: course.id,
    title: t("courses.copyTitle", { title: course.title }),
  });
  return apiOk(jobView(job), 202);
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return apiMethodNotAllowed(request, context, ["POST"]);
}
