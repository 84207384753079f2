import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { startWebSignIn } from "~/kernel/sso.server";
import { readForm } from "~/utils/form-data.server";

/**
 * docs/product.md §7 SSO `auth/sso/{driver}/redirect` for browsers: the sign-in buttons link here; the browser goes
 * on to the organization's provider. A link, not a form: `form-action 'self'` would stop a form's
 * redirect to another site.
 */
export function loader({ request, context, params }: LoaderFunctionArgs) {
  return startWebSignIn(request, context, params.driver ?? "");
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  // A copy: the sign-in reads the body again, for a provider's answer (app/models/sso/strategy.server.ts).
  await readForm(request.clone(), context);
  return startWebSignIn(request, context, params.driver ?? "");
}
