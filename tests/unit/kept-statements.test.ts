import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantDatabase, openTenantDatabase, type TenantDb } from "../../db/open";
import { preparedOnce } from "../../db/prepared";
import { categories } from "../../db/tenant";
import { tenantDatabaseFile } from "../../db/tenant-pool";
import { tempDir } from "../helpers/temp";

/**
 * Statements and drizzle queries are kept per connection (db/prepared.ts `preparedOnce`; docs/caching.md). They
 * hold SQL, not data, so what could make one stale is the schema changing under it: `npm run db:migrate` run
 * beside the server, a migration applied by another process's handle. SQLite compiles a statement again when
 * the schema it was compiled against has changed; this holds the kept statements to that.
 */
let file: string;
let server: TenantDb;
let migrator: TenantDb;

beforeAll(() => {
  file = tenantDatabaseFile(tempDir("lectern-statements-"), 1);
  createTenantDatabase(file);
  server = openTenantDatabase(file);
  migrator = openTenantDatabase(file);
});
afterAll(() => {
  server?.$client.close();
  migrator?.$client.close();
});

describe("statements kept per connection", () => {
  it("answer with the rows of the moment after another connection changes the schema (a column, an index, a table)", () => {
    const byName = () =>
      preparedOnce(server, "test.categoryByName", () =>
        server
          .select({ id: categories.id, name: categories.name })
          .from(categories)
          .where(eq(categories.name, sql.placeholder("name")))
          .prepare(),
      );
    const raw = () => preparedOnce(server, "test.categoryCount", () => server.$client.prepare("select count(*) from categories").pluck());
    expect(byName().get({ name: "Safety" })).toBeUndefined();
    expect(raw().get()).toBe(0);
    const kept = { query: byName(), statement: raw() };

    migrator.$client.exec(`
      alter table categories add column kept_test text default 'x' not null;
      create index categories_kept_test_idx on categories (kept_test, name);
      create table kept_test_other (id integer primary key);
      insert into categories (name) values ('Safety');
    `);
    expect(byName()).toBe(kept.query);
    expect(raw()).toBe(kept.statement);
    expect(byName().get({ name: "Safety" })?.name).toBe("Safety");
    expect(raw().get()).toBe(1);

    migrator.$client.exec("drop index categories_kept_test_idx; insert into categories (name) values ('Fire')");
    expect(byName().get({ name: "Fire" })?.name).toBe("Fire");
    expect(raw().get()).toBe(2);
  });
});
