import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { startWebSignIn } from "~/kernel/sso.server";

/**
 * docs/product.md §7 SSO `auth/sso/{driver}/redirect` for browsers: the sign-in buttons link here; the browser goes
 * on to the organization's provider. A link, not a form: `form-action 'self'` would stop a form's
 * redirect to another site.
 */
export function loader({ request, context, params }: LoaderFunctionArgs) {
  return startWebSignIn(request, context, params.driver ?? "");
}

export function action({ request, context, params }: ActionFunctionArgs) {
  return startWebSignIn(request, context, params.driver ?? "");
}
