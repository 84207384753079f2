import Database from "better-sqlite3";
import { asc, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { plannedLimit } from "../../db/planned-limit";
import { plannedFromBoundValues } from "../helpers/statements";

const items = sqliteTable("items", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  position: integer("position").notNull(),
});

let client: Database.Database;
beforeEach(() => {
  client = new Database(":memory:");
  client.exec("create table items (id integer primary key, name text not null, position integer not null)");
  const insert = client.prepare("insert into items (name, position) values (?, ?)");
  for (let i = 1; i <= 6; i++) insert.run(`item ${i}`, i);
});
afterEach(() => client.close());

const BARE = "select name from items order by position limit ?";

describe("a LIMIT written with plannedLimit (db/planned-limit.ts)", () => {
  it("is written `? + 0`, from a number or a placeholder, with the same parameters in the same order", () => {
    const db = drizzle(client);
    const fromNumber = db.select({ name: items.name }).from(items).orderBy(asc(items.position)).limit(plannedLimit(2)).offset(1).toSQL();
    expect(fromNumber).toEqual({ sql: 'select "name" from "items" order by "items"."position" asc limit ? + 0 offset ?', params: [2, 1] });
    const fromPlaceholder = db
      .select({ name: items.name })
      .from(items)
      .orderBy(asc(items.position))
      .limit(plannedLimit(sql.placeholder("limit")))
      .offset(sql.placeholder("offset"))
      .prepare()
      .getQuery();
    expect(fromPlaceholder.sql).toBe('select "name" from "items" order by "items"."position" asc limit ? + 0 offset ?');
    expect(fromPlaceholder.params).toEqual([sql.placeholder("limit"), sql.placeholder("offset")]);
  });

  it("answers the rows `.limit()` answers, run again with other values", () => {
    const db = drizzle(client);
    const page = db
      .select({ name: items.name })
      .from(items)
      .orderBy(asc(items.position))
      .limit(plannedLimit(sql.placeholder("limit")))
      .offset(sql.placeholder("offset"))
      .prepare();
    const bare = (limit: number, offset: number) =>
      db
        .select({ name: items.name })
        .from(items)
        .orderBy(asc(items.position))
        .limit(limit)
        .offset(offset)
        .all()
        .map((r) => r.name);
    for (const [limit, offset] of [
      [2, 1],
      [3, 4],
      [0, 0],
      [10, 0],
    ])
      expect(page.all({ limit, offset }).map((r) => r.name)).toEqual(bare(limit, offset));
    expect(page.all({ limit: 2, offset: 1 }).map((r) => r.name)).toEqual(["item 2", "item 3"]);
  });

  it("is planned once by SQLite, where a bare bound LIMIT is planned again from each value bound to it", () => {
    // The observable: one EXPLAIN statement run with two limits lists two programs only if SQLite planned
    // it again between the runs, reading the value bound (better-sqlite3 binds a BigInt as an INTEGER,
    // which the plan then shows; a number is bound as REAL, read while planning but not used).
    expect(plannedFromBoundValues(client, BARE)).toBe(true);
    expect(plannedFromBoundValues(client, "select name from items order by position limit ? + 0")).toBe(false);
    const db = drizzle(client);
    const query = (limit: number) => db.select({ name: items.name }).from(items).orderBy(asc(items.position)).limit(limit).offset(1);
    expect(plannedFromBoundValues(client, query(2).toSQL().sql)).toBe(true);
    expect(
      plannedFromBoundValues(
        client,
        db.select({ name: items.name }).from(items).orderBy(asc(items.position)).limit(plannedLimit(2)).offset(1).toSQL().sql,
      ),
    ).toBe(false);
    // Named parameters alike (SQL written by hand: app/models/leaderboard.server.ts's window widgets).
    expect(plannedFromBoundValues(client, "select name from items where position >= :from order by position limit :limit")).toBe(true);
    expect(plannedFromBoundValues(client, "select name from items where position >= :from order by position limit :limit + 0")).toBe(false);
  });
});
