import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDriver, editDriver, ssoDriverSchema } from "~/models/sso/drivers.server";
import { providerConfiguration, type SsoTenant } from "~/models/sso/flow.server";
import { makeSecretBox } from "~/models/sso/seal.server";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import type { SsoDriver } from "../../db/tenant";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { tempDir } from "../helpers/temp";

/**
 * A provider's configuration is kept five minutes so a burst of sign-ins is not a burst of discovery
 * requests (app/models/sso/flow.server.ts `providerConfiguration`), keyed by everything that shapes it
 * (docs/caching.md): an admin's edit of an address or the secret is used by the next sign-in, not five
 * minutes later. OAuth2 drivers are configured from their addresses, so no provider needs to run here.
 */
let db: TenantDb;
let tenant: SsoTenant;
let driver: SsoDriver;

const input = (changes: Record<string, string> = {}) =>
  ssoDriverSchema.parse({
    kind: "oauth2",
    slug: "corp",
    label: "Corp",
    enabled: "on",
    authorizationUrl: "http://localhost:9400/authorize",
    tokenUrl: "http://localhost:9400/token",
    userinfoUrl: "http://localhost:9400/userinfo",
    clientId: "lectern",
    clientSecret: "",
    ...changes,
  });

beforeAll(() => {
  const file = tenantDatabaseFile(tempDir("lectern-sso-cache-"), 1);
  createTenantDatabase(file);
  db = openTenantDatabase(file);
  tenant = {
    db,
    box: makeSecretBox(Buffer.from("a-server-key-of-at-least-32-characters!!")),
    organizationId: 1,
    origin: "http://acme.localhost",
  };
  const added = addDriver(db, tenant.box, 1, input({ clientSecret: "first secret" }));
  if (!added.ok) throw new Error(JSON.stringify(added.problems));
  driver = added.driver;
});
afterAll(() => db?.$client.close());

function edited(changes: Record<string, string>) {
  const result = editDriver(db, tenant.box, 1, driver.id, input(changes));
  if (!result?.ok) throw new Error(JSON.stringify(result));
  return result.driver;
}

describe("a provider's kept configuration", () => {
  it("is the same for the same driver, and made anew after an edit of its addresses or its secret", async () => {
    const first = await providerConfiguration(tenant, driver);
    expect(await providerConfiguration(tenant, driver)).toBe(first);
    expect(first.serverMetadata().token_endpoint).toBe("http://localhost:9400/token");

    const moved = edited({ tokenUrl: "http://localhost:9401/token" });
    const after = await providerConfiguration(tenant, moved);
    expect(after).not.toBe(first);
    expect(after.serverMetadata().token_endpoint).toBe("http://localhost:9401/token");

    const rekeyed = edited({ tokenUrl: "http://localhost:9401/token", clientSecret: "second secret" });
    expect(rekeyed.clientSecretSealed).not.toBe(moved.clientSecretSealed);
    expect(await providerConfiguration(tenant, rekeyed)).not.toBe(after);
  });
});
