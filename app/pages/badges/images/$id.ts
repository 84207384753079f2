import type { LoaderFunctionArgs } from "@remix-run/node";
import { badgeSvg } from "~/components/badge-image";
import { getBadgeClass } from "~/models/open-badges.server";
import { requireOrganization } from "~/utils/tenant.server";

/** Public: a badge's image (SVG drawn from its name and colour). */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const { db } = requireOrganization(context);
  const badge = /^\d{1,15}$/.test(params.id ?? "") ? getBadgeClass(db, Number(params.id)) : undefined;
  if (!badge) throw new Response("Not Found", { status: 404 });
  return new Response(badgeSvg(badge.name, badge.color, 256), {
    headers: {
      "Content-Type": "image/svg+xml",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
      "Cache-Control": "public, max-age=300",
    },
  });
}
