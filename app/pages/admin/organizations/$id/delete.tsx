import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ConfirmDelete } from "~/components/confirm-delete";
import { deleteOrganization, getOrganization } from "~/models/organization.server";
import { requireSuperAdmin } from "~/kernel/auth.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { readForm } from "~/utils/form-data.server";

function organizationFrom(context: LoaderFunctionArgs["context"], id: string | undefined) {
  const organization = getOrganization(context.platform.db, Number(id));
  if (!organization) throw new Response("Not Found", { status: 404 });
  return organization;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireSuperAdmin(request, context);
  const organization = organizationFrom(context, params.id);
  return { name: organization.name, back: `/admin/organizations/${organization.id}` };
}

/** Deletes the registry row and moves the folder aside (docs: nothing is destroyed by a slip). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireSuperAdmin(request, context);
  const organization = organizationFrom(context, params.id);
  await readForm(request, context);
  context.platform.tenants.discard(organization.id);
  deleteOrganization(context.platform.db, { dataDir: context.platform.dataDir }, organization.id);
  context.platform.organizations.invalidate();
  return redirectWithFlash("/admin/organizations", "flash.organizationDeleted");
}

export default function DeleteOrganization() {
  const { name, back } = useLoaderData<typeof loader>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
