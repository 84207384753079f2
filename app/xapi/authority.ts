import type { XapiContext } from "./context.server";

/**
 * The Agent the LRS names as the authority of what a credential sends: the credential itself, as an account
 * on this LRS (xAPI 2.0.0 §2.4.9: the LRS sets it, overriding what the statement says).
 */
export function authorityOf({ credential, baseUrl }: Pick<XapiContext, "credential" | "baseUrl">) {
  return { objectType: "Agent", name: credential.name, account: { homePage: baseUrl, name: credential.key } };
}
