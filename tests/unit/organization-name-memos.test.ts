import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymousViewer } from "../../app/access/viewer";
import { createOrganization, updateOrganization } from "../../app/models/organization.server";
import { loader } from "../../app/root.server";
import type { Organization } from "../../db/platform";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
import { tempDir } from "../helpers/temp";

/**
 * Every page's meta description (app/root.server.ts `description`) and its monogram icon's address
 * (app/models/organization.server.ts `monogramVersion`) are kept in memory by the organization's name, not
 * by its id (docs/caching.md): a renamed organization's next page names it, with no restart and nothing to
 * clear. The root loader runs here as Remix runs it, for the organization as the directory hands it out.
 */
let platform: Platform;
let organization: Organization;

beforeAll(() => {
  platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: tempDir("lectern-name-memos-") });
  organization = createOrganization(
    platform.db,
    { dataDir: platform.config.DATA_DIR },
    { name: "River School", urlPrefix: "river", language: "en" },
  );
});
afterAll(() => platform?.close());

async function rootData(of: Organization) {
  const context: AppLoadContext = {
    organization: of,
    db: null,
    platform,
    cspNonce: "nonce",
    requestId: "test",
    clientIp: "127.0.0.1",
    viewer: anonymousViewer(of, null, "en"),
  };
  const reply = await loader({ request: new Request("http://river.localhost/"), context, params: {} });
  return reply.json();
}

describe("what is kept by an organization's name", () => {
  it("follows a renamed organization at once: the meta description and the monogram icon's address", async () => {
    const before = await rootData(organization);
    expect(before.description).toContain("River School");
    expect(before.icon.href).toMatch(/^\/favicon\.svg\?v=[\w-]{10}$/);
    // Kept: the same answers again.
    expect(await rootData(organization)).toMatchObject({ description: before.description, icon: before.icon });

    const renamed = updateOrganization(platform.db, organization.id, { name: "Lake School" });
    if (!renamed) throw new Error("the organization was not renamed");
    const after = await rootData(renamed);
    expect(after.description).toContain("Lake School");
    expect(after.description).not.toContain("River School");
    expect(after.icon.href).toMatch(/^\/favicon\.svg\?v=[\w-]{10}$/);
    expect(after.icon.href).not.toBe(before.icon.href);

    // And back: the first name's entries are still right for it.
    const back = updateOrganization(platform.db, organization.id, { name: "River School" });
    if (!back) throw new Error("the organization was not renamed back");
    expect(await rootData(back)).toMatchObject({ description: before.description, icon: before.icon });
  });
});
