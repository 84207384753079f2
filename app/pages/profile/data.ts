import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/kernel/auth.server";
import { personalData } from "~/models/personal-data.server";
import { dayIn, DEFAULT_TIME_ZONE, isTimeZone } from "~/utils/calendar";
import { requireOrganization } from "~/utils/tenant.server";

/** The file's name: `<organization>-my-data-<day>.json`, the organization's name in plain letters, digits and dashes. */
function exportFileName(organizationName: string, day: string) {
  const slug = organizationName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
  return `${slug || "organization"}-my-data-${day}.json`;
}

/**
 * `/profile/data`: everything the organization keeps about the signed-in person, as one JSON file to download
 * (GDPR Art. 15 and 20; app/models/personal-data.server.ts says what it holds and what it leaves out). Any
 * role, their own data only, in this host's organization only; never kept by a browser or a proxy.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  const { person } = requireUser(request, context);
  const now = new Date();
  const timeZone = isTimeZone(organization.timeZone) ? organization.timeZone : DEFAULT_TIME_ZONE;
  // Its own address first (links in the file name it); the host this request came on names it as well.
  const origins = [context.platform.originFor(organization), new URL(request.url).origin];
  const data = personalData(db, person.id, { origins, timeZone, now });
  if (!data) throw new Response("Not Found", { status: 404 });
  const { format, exported_at, ...sections } = data;
  const file = { format, exported_at, organization: { name: organization.name, address: origins[0] }, ...sections };
  return new Response(`${JSON.stringify(file, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(organization.name, dayIn(timeZone, now))}"`,
      "Cache-Control": "no-store",
    },
  });
}
