import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOrganization } from "~/models/organization.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

let dir: string;
let platform: Platform;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-dir-"));
  platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dir, PLATFORM_DOMAIN: "lectern.test" });
});
afterEach(() => {
  platform.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const create = (input: { name: string; urlPrefix?: string; domain?: string; customDomain?: string }) =>
  createOrganization(platform.db, { dataDir: dir }, { language: "en", ...input });

describe("OrganizationDirectory", () => {
  it("finds an organization by custom domain, domain or url prefix, ignoring case and port", () => {
    const acme = create({ name: "Acme", urlPrefix: "acme", domain: "learn.acme.com", customDomain: "academy.acme.org" });
    for (const host of ["acme.lectern.test", "ACME.lectern.test:8080", "learn.acme.com", "academy.acme.org:443"]) {
      expect(platform.organizations.resolve(host).organization?.id, host).toBe(acme.id);
    }
  });

  it("does not treat a deeper sub-domain or another platform's host as a url prefix", () => {
    create({ name: "Acme", urlPrefix: "acme" });
    expect(platform.organizations.resolve("x.acme.lectern.test").organization).toBeNull();
    expect(platform.organizations.resolve("acme.other.test").organization).toBeNull();
    expect(platform.organizations.resolve("acme.lectern.test.").organization).toBeNull();
  });

  it("prefers a custom domain over another organization's domain or prefix", () => {
    create({ name: "Prefix owner", urlPrefix: "shared" });
    const custom = create({ name: "Custom owner", customDomain: "shared.lectern.test" });
    expect(platform.organizations.resolve("shared.lectern.test").organization?.id).toBe(custom.id);
  });

  it("knows the platform host, which has no organization", () => {
    const { host, organization } = platform.organizations.resolve("lectern.test:3000");
    expect(organization).toBeNull();
    expect(platform.organizations.isPlatformHost(host)).toBe(true);
  });

  it("notices a change another process commits to the registry", () => {
    const acme = create({ name: "Acme", urlPrefix: "acme" });
    expect(platform.organizations.resolve("acme.lectern.test").organization?.name).toBe("Acme");
    const other = new Database(path.join(dir, "platform.sqlite"));
    other.prepare("update organizations set name = 'Acme Renamed' where id = ?").run(acme.id);
    other.close();
    expect(platform.organizations.resolve("acme.lectern.test").organization?.name).toBe("Acme Renamed");
  });

  it("creates the organization's folder with a migrated database, and rolls back when it cannot", () => {
    const acme = create({ name: "Acme", urlPrefix: "acme" });
    expect(fs.existsSync(path.join(dir, `org-${acme.id}`, "db.sqlite"))).toBe(true);
    // A folder squatting on the next id's database path makes provisioning fail.
    fs.mkdirSync(path.join(dir, `org-${acme.id + 1}`, "db.sqlite"), { recursive: true });
    expect(() => create({ name: "Beta", urlPrefix: "beta" })).toThrow();
    expect(platform.organizations.resolve("beta.lectern.test").organization).toBeNull();
  });

  it("refuses two organizations on the same prefix", () => {
    create({ name: "Acme", urlPrefix: "acme" });
    expect(() => create({ name: "Acme 2", urlPrefix: "acme" })).toThrow(/UNIQUE/);
  });
});
