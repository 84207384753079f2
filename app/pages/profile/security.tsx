import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { deviceView, listDevices, revokeDevice } from "~/models/auth/session.server";
import { requireUser, realmFor } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { formatDate } from "~/utils/dates";
import { requireOrganization } from "~/utils/tenant.server";
import { readForm } from "~/utils/form-data.server";

/** Password and signed-in devices, each of which can be signed out. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireOrganization(context);
  const auth = await requireUser(request, context);
  return { devices: listDevices(realmFor(context), auth.person.id).map((s) => deviceView(s, auth.session.id)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  requireOrganization(context);
  const auth = await requireUser(request, context);
  const id = Number((await readForm(request, context)).get("id"));
  if (!Number.isSafeInteger(id) || id === auth.session.id) return redirect("/profile/security");
  revokeDevice(realmFor(context), auth.person.id, id);
  return redirectWithFlash("/profile/security", "flash.deviceRevoked");
}

export default function Security() {
  const { t } = useTranslation();
  const { devices } = useLoaderData<typeof loader>();
  return (
    <section>
      <h1>{t("profile.security")}</h1>
      <p>
        <Link to="/auth/password" className="button">
          {t("profile.changePassword")}
        </Link>
      </p>
      <h2>{t("profile.devices")}</h2>
      <table className="table" data-testid="devices">
        <tbody>
          {devices.map((d) => (
            <tr key={d.id}>
              <td>{d.user_agent || d.kind}</td>
              <td>{t("profile.lastSeen", { date: formatDate(d.last_seen_at) })}</td>
              <td>
                {d.current ? (
                  <span className="badge">{t("profile.current")}</span>
                ) : (
                  <Form method="post">
                    <input type="hidden" name="id" value={d.id} />
                    <button type="submit" className="danger">
                      {t("profile.revoke")}
                    </button>
                  </Form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
