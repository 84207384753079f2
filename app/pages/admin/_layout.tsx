import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { AreaNav } from "~/components/area-nav";
import { requireSuperAdmin } from "~/kernel/auth.server";

/** The super-admin area (docs/product.md §2 "Admin area"): only on the platform host, only for super-admins. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireSuperAdmin(request, context);
  return null;
}

export default function AdminLayout() {
  const { t } = useTranslation();
  return (
    <div className="area">
      <AreaNav
        label={t("admin.title")}
        links={[
          { to: "/admin", label: t("admin.overview"), end: true },
          { to: "/admin/organizations", label: t("admin.organizations") },
          { to: "/admin/users", label: t("admin.users") },
        ]}
      />
      <div className="area-body">
        <Outlet />
      </div>
    </div>
  );
}
