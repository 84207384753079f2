import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, SerializeFrom } from "@remix-run/node";
import { z } from "zod";
import { isPathVisible, mayEnrolInPath } from "~/access/paths";
import { localToday } from "~/models/assignment.server";
import { learnerContext } from "~/kernel/learner.server";
import { certificateForPath } from "~/models/certificate.server";
import { pathDueFor } from "~/models/paths/assignments.server";
import { enrolInPath, pathExpired, renewPath } from "~/models/paths/enrolments.server";
import { pathCatalogue, pathPage, yourPaths, type PathCard } from "~/models/paths/learner.server";
import { getPath } from "~/models/paths/paths.server";
import { formatDate } from "~/utils/dates";
import { formRefusal, readForm } from "~/utils/form-data.server";
import { redirect } from "~/utils/redirect";
import { sanitizeRichText } from "~/utils/sanitize.server";

/*
 * The learner's learning path pages (issue 49, docs/decisions/045-learning-paths.md): /paths (the paths a person
 * is on, then every path they see) and /paths/{id} (its steps as a timeline, enrolment, where to continue). Both
 * work without JavaScript: enrolment is a plain form.
 */

function coverOf(context: AppLoadContext, organizationId: number) {
  return (card: PathCard) => ({
    ...card,
    cover: card.coverFileId ? context.platform.imageUrl(organizationId, card.coverFileId, "cover") : null,
  });
}

export async function pathsLoader({ request, context }: LoaderFunctionArgs) {
  const { db, viewer, person, organization } = learnerContext(request, context);
  const cover = coverOf(context, organization.id);
  const mine = person ? yourPaths(db, viewer, person.id).map(cover) : [];
  const on = new Set(mine.map((p) => p.id));
  return {
    signedIn: person !== null,
    mine,
    others: pathCatalogue(db, viewer)
      .filter((p) => !on.has(p.id))
      .map(cover),
  };
}

function pathId(params: LoaderFunctionArgs["params"]) {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new Response("Not Found", { status: 404 });
  return id;
}

/** A step's state as the page words it: dates written out on the server, as the learner's other pages do. */
function stateView(state: NonNullable<ReturnType<typeof pathPage>>["steps"][number]["state"], locale: string) {
  switch (state.state) {
    case "done":
      return { state: "done" as const, date: formatDate(state.doneAt, { locale }) };
    case "open":
      return { state: "open" as const, date: formatDate(state.openedAt, { locale }) };
    case "waiting":
      return { state: "waiting" as const, date: formatDate(state.opensAt, { locale }) };
    default:
      return { state: "locked" as const, date: null };
  }
}

export async function pathLoader({ request, context, params }: LoaderFunctionArgs) {
  const { db, viewer, person, organization } = learnerContext(request, context);
  const page = pathPage(db, viewer, pathId(params), person?.id ?? null);
  if (!page) throw new Response("Not Found", { status: 404 });
  const locale = viewer.language;
  const { path, progress, enrolment } = page;
  return {
    path: {
      id: path.id,
      title: path.title,
      description: sanitizeRichText(path.description),
      cover: path.coverFileId ? context.platform.imageUrl(organization.id, path.coverFileId, "cover") : null,
      certificates: path.allowCertificates,
      points: path.points,
    },
    signedIn: person !== null,
    loginUrl: `/auth/login?${new URLSearchParams({ redirectTo: `/paths/${path.id}` })}`,
    mayEnrol: page.mayEnrol,
    enrolled: enrolment !== null,
    assigned: enrolment?.source === "assigned",
    percent: progress ? (enrolment?.completedAt ? 100 : progress.percent) : null,
    doneOn: enrolment?.completedAt ? formatDate(enrolment.completedAt, { locale }) : null,
    // Recertification: a completion that expired, which the person may renew by taking the path again.
    expiredOn:
      enrolment && pathExpired(enrolment, localToday(db, new Date()))
        ? formatDate(`${enrolment.expiresOn}T12:00:00Z`, { timeZone: "UTC" })
        : null,
    due: dueView(person && enrolment ? pathDueFor(db, person.id, path.id, { started: (progress?.percent ?? 0) > 0 }) : null),
    certificateId: person && enrolment?.completedAt ? (certificateForPath(db, person.id, path.id)?.id ?? null) : null,
    next: page.next,
    courseCount: new Set(page.steps.flatMap((s) => s.courses.map((c) => c.id))).size,
    steps: page.steps.map((s) => ({
      id: s.id,
      number: s.number,
      kind: s.kind,
      title: s.title,
      required: s.required,
      delayDays: s.delayDays,
      completed: s.state.completed,
      courses: s.courses,
      ...stateView(s.state, locale),
    })),
  };
}

/** "Assigned to you — due …": the day written out on the server (a local day at noon UTC is that day anywhere). */
function dueView(due: ReturnType<typeof pathDueFor>) {
  return due ? { state: due.state, on: formatDate(`${due.dueOn}T12:00:00Z`, { timeZone: "UTC" }) } : null;
}

export type PathPageData = SerializeFrom<typeof pathLoader>;
export type PathsPageData = SerializeFrom<typeof pathsLoader>;

const actionSchema = z.object({ intent: z.enum(["enrol", "renew"]) });

/** Enrolment by the learner, where the path takes it; back to the path's page. */
export async function pathAction({ request, context, params }: ActionFunctionArgs) {
  const { db, viewer, person } = learnerContext(request, context);
  const id = pathId(params);
  if (!person) throw redirect(`/auth/login?${new URLSearchParams({ redirectTo: `/paths/${id}` })}`);
  const path = getPath(db, id);
  if (!path || !isPathVisible(db, viewer, path)) throw new Response("Not Found", { status: 404 });
  const parsed = actionSchema.safeParse(Object.fromEntries(await readForm(request, context)));
  if (!parsed.success) throw await formRefusal(context, 400);
  if (parsed.data.intent === "renew") {
    // Taking an expired path again (recertification): only the person's own, once it has expired.
    if (!renewPath(db, { pathId: path.id, userId: person.id })) throw new Response("Conflict", { status: 409 });
  } else {
    if (!mayEnrolInPath(db, viewer, path)) throw new Response("Not Found", { status: 404 });
    enrolInPath(db, { pathId: path.id, userId: person.id, source: "self" });
  }
  throw redirect(`/paths/${path.id}`, 303);
}
