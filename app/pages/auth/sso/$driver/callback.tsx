import type { LoaderFunctionArgs } from "@remix-run/node";
import { finishWebSignIn } from "~/kernel/sso.server";

/**
 * docs/product.md §2 `/auth/sso/{driver?}/callback`: where the provider sends the browser back. On success the
 * person lands on /auth/redirect (or the 2FA step); on any failure, on /auth/login with the reason.
 * Without a driver in the address, the state names it.
 */
export function loader({ request, context, params }: LoaderFunctionArgs) {
  return finishWebSignIn(request, context, params.driver);
}
