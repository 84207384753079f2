import { Authenticator } from "remix-auth";
import { Strategy } from "remix-auth/strategy";
import { beginSignIn, completeSignIn, SsoFailure, type ProviderIdentity, type SsoKind, type SsoTenant } from "./flow.server";
import type { SsoDriver } from "../../../db/tenant";

export interface SsoStrategyOptions {
  tenant: SsoTenant;
  kind: SsoKind;
  /** The driver named in the address; on a callback without one, the state names it. */
  driver: SsoDriver | null;
  /** The value that binds a sign-in to whoever started it: the browser's cookie, or the app's copy. */
  binding: string | null;
  redirectTo?: string;
  /** Called when a sign-in starts (no answer from the provider yet): where to send the browser. */
  onBegin?: (started: Awaited<ReturnType<typeof beginSignIn>>) => Promise<never>;
}

/**
 * One organization's identity provider as a remix-auth strategy. Without a provider's answer in the
 * request it starts the authorization code flow (state, nonce, PKCE S256) and hands the provider's address
 * to `onBegin`, which throws the redirect; with one it finishes the flow and gives the verified identity to
 * the verify callback, which finds or creates the person. The strategy is made per request: each
 * organization has its own drivers, and remix-auth's verify sees the request, not the load context.
 */
export class OrganizationSsoStrategy<User> extends Strategy<User, { identity: ProviderIdentity; request: Request }> {
  name = "organization-sso";

  constructor(
    private readonly options: SsoStrategyOptions,
    verify: Strategy.VerifyFunction<User, { identity: ProviderIdentity; request: Request }>,
  ) {
    super(verify);
  }

  async authenticate(request: Request): Promise<User> {
    const { tenant, kind, driver, binding, redirectTo, onBegin } = this.options;
    const params = await answerParams(request);
    if (!params.has("state") && !params.has("code") && !params.has("error")) {
      // A callback address opened without the provider's answer: nothing to finish.
      if (!driver || !onBegin) throw new SsoFailure("state", "no answer from the provider");
      return onBegin(await beginSignIn(tenant, driver, { kind, redirectTo }));
    }
    const identity = await completeSignIn(tenant, { params, binding, kind, driverSlug: driver?.slug });
    return this.verify({ identity, request });
  }
}

/** The provider's answer: the query string, or a form body (response_mode=form_post, or an app's POST). */
async function answerParams(request: Request) {
  const params = new URL(request.url).searchParams;
  if (request.method === "POST") {
    const type = request.headers.get("Content-Type") ?? "";
    if (type.startsWith("application/x-www-form-urlencoded")) {
      return new URLSearchParams(await request.text());
    }
  }
  return params;
}

/** Runs one sign-in through remix-auth's Authenticator with this organization's strategy. */
export function authenticateSso<User>(
  request: Request,
  options: SsoStrategyOptions,
  verify: (params: { identity: ProviderIdentity; request: Request }) => Promise<User>,
) {
  const authenticator = new Authenticator<User>();
  authenticator.use(new OrganizationSsoStrategy<User>(options, verify));
  return authenticator.authenticate("organization-sso", request);
}
