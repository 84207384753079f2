import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTenantDatabase } from "../../db/open";
import { award } from "../../app/models/points.server";
import { api, postForm } from "../helpers/auth";
import { request } from "../helpers/http";
import { startInProcess, type InProcessServer } from "../helpers/in-process";
import { makeDataDir } from "../helpers/server";
import { cookieFor, insertSession } from "../helpers/sessions";

/**
 * One time zone per organization (organizations.time_zone): analytics and the leaderboard count days,
 * ISO weeks and months in it; the leaderboard's settings edit it; a zone the leaderboard had been given
 * before the two settings became one moves over to the organization.
 */
let server: InProcessServer;
let token: string;
let cookie: string;
const ORG = "nordlys.localhost";
const TAB = "/dashboard/organizations/2/leaderboard";

function platformZone() {
  const db = new Database(path.join(server.dataDir, "platform.sqlite"), { readonly: true });
  try {
    return (db.prepare("select time_zone from organizations where id = 2").get() as { time_zone: string }).time_zone;
  } finally {
    db.close();
  }
}
function tenantCopy() {
  const db = new Database(path.join(server.dataDir, "org-2", "db.sqlite"), { readonly: true });
  try {
    return (db.prepare("select time_zone from leaderboard_settings where id = 1").get() as { time_zone: string }).time_zone;
  } finally {
    db.close();
  }
}
// Nordlys's admin reads Danish.
const da = (file: string) => JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "locales", "da", file), "utf8"));
const escaped = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;").replace(/</g, "&lt;");
const apiZone = async () =>
  (await api(server, ORG, "GET", "analytics/users/new-users?period=7d", { token })).json().payload.time_zone as string;

beforeAll(async () => {
  // An organization from before: its leaderboard was set to New York, its analytics left at the default.
  const dataDir = makeDataDir();
  const tenant = new Database(path.join(dataDir, "org-2", "db.sqlite"));
  tenant.prepare("update leaderboard_settings set time_zone = 'America/New_York' where id = 1").run();
  tenant.close();
  server = await startInProcess({ dataDir });
  token = insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "api" });
  cookie = await cookieFor(insertSession(server, { organizationId: 2 }, { email: "admin@nordlys.test", kind: "web" }));
});
afterAll(() => server?.stop());

describe("the organization's time zone", () => {
  it("takes over a zone the leaderboard had been given while the organization's was the default", async () => {
    expect(platformZone()).toBe("Europe/Copenhagen");
    expect(await apiZone()).toBe("America/New_York");
    expect(platformZone()).toBe("America/New_York");
    const page = await request(server.port, ORG, TAB, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<option[^>]*value="America\/New_York"[^>]*selected/);
  });

  it("is edited on the leaderboard's settings, and analytics and the leaderboard both count in it", async () => {
    const res = await postForm(server, ORG, TAB, { intent: "time-zone", timeZone: "Asia/Tokyo" }, cookie);
    expect(res.status).toBe(302);
    expect(platformZone()).toBe("Asia/Tokyo");
    expect(tenantCopy()).toBe("Asia/Tokyo");
    expect(await apiZone()).toBe("Asia/Tokyo");
    const page = await request(server.port, ORG, `${TAB}?saved=time-zone`, { headers: { Cookie: cookie } });
    expect(page.body).toMatch(/<option[^>]*value="Asia\/Tokyo"[^>]*selected/);
    expect(page.body).toContain(escaped(da("calendar.json").calendar.timeZoneHint));
    // Points are counted inside the learning transaction, on the tenant's copy: Tokyo's day, not UTC's.
    const db = openTenantDatabase(path.join(server.dataDir, "org-2", "db.sqlite"));
    try {
      const learner = db.$client.prepare("select id from users where email = 'learner@nordlys.test'").get() as { id: number };
      award(db, { userId: learner.id, activity: "bookmark", ref: "time-zone-test", at: new Date("2026-03-01T16:00:00Z") });
      expect(db.$client.prepare("select day from points_ledger where ref = 'time-zone-test'").get()).toEqual({ day: "2026-03-02" });
    } finally {
      db.$client.close();
    }
  });

  it("refuses a zone that does not exist, with a message, and changes nothing", async () => {
    const res = await postForm(server, ORG, TAB, { intent: "time-zone", timeZone: "Mars/Olympus_Mons" }, cookie);
    expect(res.status).toBe(400);
    expect(res.body).toContain(escaped(da("leaderboard.json").leaderboard.errors.timeZone));
    expect(platformZone()).toBe("Asia/Tokyo");
    expect(tenantCopy()).toBe("Asia/Tokyo");
  });
});
