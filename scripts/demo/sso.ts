import { eq } from "drizzle-orm";
import { organizations } from "../../db/platform";
import { addDriver, ssoDriverSchema } from "../../app/models/sso/drivers.server";
import type { Platform } from "../../server/platform";

/**
 * The SSO demo: Acme Academy gets an OpenID Connect driver pointing at the test identity provider that
 * `npm run dev:idp` starts on http://localhost:9400. Its label says so; without that provider running,
 * the button answers "The identity provider cannot be reached right now". Nothing is faked: with it
 * running, the whole round trip is real (sign in there with any name and password).
 */
export function seedSsoDemo(platform: Platform) {
  const acme = platform.db.select().from(organizations).where(eq(organizations.urlPrefix, "acme")).get();
  if (!acme) return;
  const input = ssoDriverSchema.parse({
    kind: "oidc",
    slug: "demo-idp",
    label: "Demo identity provider (npm run dev:idp)",
    enabled: "on",
    issuer: "http://localhost:9400",
    clientId: "lectern-demo",
    clientSecret: "lectern-demo-secret",
    scopes: "openid email profile",
    createUsers: "on",
    defaultRole: "learner",
    managedExternally: "on",
  });
  platform.tenants.withTenant(acme.id, (db) => addDriver(db, platform.secrets, acme.id, input));
}
