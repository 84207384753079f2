import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { AreaNav } from "~/components/area-nav";
import { requireUser } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";

/** docs/product.md §2 /profile: index, bookmarks, certificates, security and settings. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requireOrganization(context);
  await requireUser(request, context);
  return null;
}

export default function ProfileLayout() {
  const { t } = useTranslation();
  return (
    <div className="area">
      <AreaNav
        label={t("profile.title")}
        links={[
          { to: "/profile", label: t("profile.index"), end: true },
          { to: "/profile/bookmarks", label: t("profile.bookmarks") },
          { to: "/profile/certificates", label: t("profile.certificates") },
          { to: "/profile/security", label: t("profile.security") },
          { to: "/profile/settings", label: t("profile.settings") },
        ]}
      />
      <div className="area-body">
        <Outlet />
      </div>
    </div>
  );
}
