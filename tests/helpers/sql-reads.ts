import type Database from "better-sqlite3";

/**
 * What SQL statements read of a SQLite database, as SQLite itself compiles them (`EXPLAIN`), and which of
 * those reads the database's version triggers follow (docs/caching.md): for the tests that hold a kept
 * result to the versions it is checked against (tests/integration/kept-page-triggers.test.ts,
 * tests/unit/course-rules.test.ts).
 */

/** The columns read of each table: `rowid` where SQLite reads a row id of a table with no INTEGER PRIMARY KEY. */
export type ColumnsRead = Map<string, Set<string>>;

interface Tree {
  table: string;
  /** Its columns in SQLite's order; an index's end with the row id. */
  columns: string[];
  index: boolean;
}

/** A database's tables and indexes, by root page; the INTEGER PRIMARY KEY (row id) column of each table. */
export interface Schema {
  trees: Map<number, Tree>;
  rowidColumn: Map<string, string>;
  /** Virtual tables (full-text indexes): SQLite reads them through their module, not through `OpenRead`. */
  virtual: Set<string>;
  /** Index name → its table (for `EXPLAIN QUERY PLAN`'s lines), and an index's tree → its name. */
  indexTable: Map<string, string>;
  indexName: Map<Tree, string>;
  tables: Set<string>;
}

export function schemaOf(db: Database.Database): Schema {
  const rows = db.prepare("select type, name, tbl_name as tableName, rootpage, sql from sqlite_schema").all() as Array<{
    type: string;
    name: string;
    tableName: string;
    rootpage: number | null;
    sql: string | null;
  }>;
  const schema: Schema = {
    trees: new Map(),
    rowidColumn: new Map(),
    virtual: new Set(),
    indexTable: new Map(),
    indexName: new Map(),
    tables: new Set(),
  };
  schema.trees.set(1, { table: "sqlite_schema", columns: ["type", "name", "tbl_name", "rootpage", "sql"], index: false });
  for (const row of rows) {
    if (row.type === "table") schema.tables.add(row.name);
    if (row.type === "table" && /^create virtual table/i.test(row.sql ?? "")) schema.virtual.add(row.name);
    if (row.type === "index") schema.indexTable.set(row.name, row.tableName);
    if (!row.rootpage || (row.type !== "table" && row.type !== "index")) continue;
    if (row.type === "table") {
      const info = db.pragma(`table_info(${JSON.stringify(row.name)})`) as Array<{ name: string; type: string; pk: number }>;
      const keys = info.filter((c) => c.pk > 0);
      if (keys.length === 1 && keys[0].type.toUpperCase() === "INTEGER") schema.rowidColumn.set(row.name, keys[0].name);
      schema.trees.set(row.rootpage, { table: row.name, columns: info.map((c) => c.name), index: false });
    } else {
      const info = db.pragma(`index_xinfo(${JSON.stringify(row.name)})`) as Array<{ name: string | null }>;
      const tree = { table: row.tableName, columns: info.map((c) => c.name ?? "rowid"), index: true };
      schema.trees.set(row.rootpage, tree);
      schema.indexName.set(tree, row.name);
    }
  }
  return schema;
}

const add = (read: ColumnsRead, table: string, column: string) => {
  const columns = read.get(table) ?? new Set<string>();
  columns.add(column);
  read.set(table, columns);
};

/**
 * The columns a statement reads of each table, from its `EXPLAIN` program and plan: every column a cursor
 * reads out, the row id where it reads or seeks one (named by the table's INTEGER PRIMARY KEY), the columns
 * an index is searched by (they choose rows without being read out; an index walked whole counts with all
 * its columns where the statement asks for an order), and `*` for a virtual table the statement names. `args`: the values it ran with.
 */
export function columnsRead(db: Database.Database, schema: Schema, source: string, args: unknown[] = []): ColumnsRead {
  const read: ColumnsRead = new Map();
  const cursors = new Map<number, Tree>();
  const program = db.prepare(`explain ${source}`).all(...args) as Array<{ opcode: string; p1: number; p2: number; p3: number }>;
  const rowid = (tree: Tree) => schema.rowidColumn.get(tree.table) ?? "rowid";
  for (const { opcode, p1, p2, p3 } of program) {
    if ((opcode === "OpenRead" || opcode === "ReopenIdx") && p3 === 0) {
      const tree = schema.trees.get(p2);
      if (tree) cursors.set(p1, tree);
      continue;
    }
    const tree = cursors.get(p1);
    if (!tree) continue;
    if (opcode === "Column") {
      const column = tree.columns[p2] ?? `#${p2}`;
      add(read, tree.table, column === "rowid" ? rowid(tree) : column);
    } else if (opcode === "Rowid" || opcode === "IdxRowid" || opcode === "SeekRowid" || opcode === "NotExists") {
      add(read, tree.table, rowid(tree));
    }
  }
  for (const { detail, table } of planOf(db, schema, source, args)) {
    if (!table) continue;
    const index = /USING (?:COVERING )?INDEX (\S+)(?: \((.*)\))?/.exec(detail);
    if (index) {
      const constrained = [...(index[2] ?? "").matchAll(/(\w+)(?:=|>|<|[<>]=)/g)].map((m) => m[1]);
      const tree = [...schema.trees.values()].find((t) => t.index && t.table === table && schema.indexName.get(t) === index[1]);
      // Walked whole, an index gives its order only to a statement that asks for one.
      const ordered = /\b(?:order|group)\s+by\b/i.test(source) ? (tree?.columns.filter((c) => c !== "rowid") ?? []) : [];
      for (const column of constrained.length ? constrained : ordered)
        add(read, table, column === "rowid" ? (schema.rowidColumn.get(table) ?? "rowid") : column);
    } else if (/USING INTEGER PRIMARY KEY/.test(detail)) add(read, table, schema.rowidColumn.get(table) ?? "rowid");
  }
  for (const table of schema.virtual) if (new RegExp(`\\b(?:from|join)\\s+["\`]?${table}\\b`, "i").test(source)) add(read, table, "*");
  return read;
}

/** `EXPLAIN QUERY PLAN`'s lines, each with the table it searches or scans when it names one. */
export function planOf(db: Database.Database, schema: Schema, source: string, args: unknown[] = []) {
  // An alias in a plan line (`SEARCH lp USING …`) is the table the SQL names before it.
  const aliases = new Map<string, string>();
  for (const m of source.matchAll(/(?:from|join)\s+["`]?(\w+)["`]?(?:\s+(?:as\s+)?["`]?(\w+)["`]?)?/gi))
    if (schema.tables.has(m[1]))
      aliases.set((m[2] && !/^(on|where|inner|left|join|group|order|limit|union)$/i.test(m[2]) ? m[2] : m[1]).toLowerCase(), m[1]);
  return (db.prepare(`explain query plan ${source}`).all(...args) as Array<{ detail: string }>).map(({ detail }) => {
    const index = /USING (?:COVERING )?INDEX (\S+)/.exec(detail)?.[1];
    const named = /^(?:SCAN|SEARCH) (\S+)/.exec(detail)?.[1];
    const table =
      (index && schema.indexTable.get(index)) ??
      (named ? (schema.tables.has(named) ? named : (aliases.get(named.toLowerCase()) ?? null)) : null);
    return { detail, table };
  });
}

/** What moves when a trigger fires: a row of `content_version`, or the version of the person a column names. */
export type Moves = { content: number } | { personColumn: string };

export interface VersionTrigger {
  name: string;
  table: string;
  event: "INSERT" | "UPDATE" | "DELETE";
  /** `UPDATE OF` these columns; null for any update. */
  of: string[] | null;
  /** The columns its `WHEN` requires a change of (`old.c IS NOT new.c OR …`); null without a `WHEN`, "other" for any other condition. */
  when: string[] | null | "other";
  moves: Moves;
}

const unquote = (name: string) => name.trim().replace(/^[`"[]|[`"\]]$/g, "");

/** The triggers that move `content_version` or `user_versions`, read back from the schema. */
export function versionTriggers(db: Database.Database): VersionTrigger[] {
  const rows = db.prepare("select name, tbl_name as tableName, sql from sqlite_schema where type = 'trigger'").all() as Array<{
    name: string;
    tableName: string;
    sql: string;
  }>;
  const found: VersionTrigger[] = [];
  for (const { name, tableName, sql } of rows) {
    const head =
      /\b(?:AFTER|BEFORE)\s+(INSERT|UPDATE|DELETE)(?:\s+OF\s+([\s\S]+?))?\s+ON\s+\S+(?:\s+WHEN\s+([\s\S]+?))?\s+BEGIN\b([\s\S]*)END;?\s*$/i.exec(
        sql,
      );
    if (!head) continue;
    const [, event, of, condition, body] = head;
    const content = /UPDATE\s+[`"]?content_version[`"]?\s+SET[\s\S]*?WHERE\s+[`"]?id[`"]?\s*=\s*(\d+)/i.exec(body);
    const person = /INSERT\s+INTO\s+[`"]?user_versions[`"]?[\s\S]*?SELECT\s+(?:new|old)\.[`"]?(\w+)[`"]?/i.exec(body);
    if (!content && !person) continue;
    let when: VersionTrigger["when"] = null;
    if (condition) {
      const terms = condition.split(/\s+OR\s+/i).map((t) => /^\s*old\.[`"]?(\w+)[`"]?\s+IS\s+NOT\s+new\.[`"]?(\w+)[`"]?\s*$/i.exec(t));
      when = terms.every((m) => m && m[1] === m[2]) ? terms.map((m) => m![1]) : "other";
    }
    found.push({
      name,
      table: tableName,
      event: event.toUpperCase() as VersionTrigger["event"],
      of: of ? of.split(",").map(unquote) : null,
      when,
      moves: content ? { content: Number(content[1]) } : { personColumn: person![1] },
    });
  }
  return found;
}

/**
 * Which changes to a table move one of the `content_version` rows in `rows`: every insert and delete, and an
 * update of the columns returned ("all" for any column). Null when an insert or a delete moves none of them.
 */
export function sharedCoverage(triggers: VersionTrigger[], table: string, rows: readonly number[]): "all" | Set<string> | null {
  const moving = triggers.filter((t) => t.table === table && "content" in t.moves && rows.includes(t.moves.content));
  const unconditional = (event: VersionTrigger["event"]) => moving.some((t) => t.event === event && t.when === null);
  if (!unconditional("INSERT") || !unconditional("DELETE")) return null;
  const columns = new Set<string>();
  for (const t of moving.filter((t) => t.event === "UPDATE")) {
    // A condition counts only when it is that one of its `UPDATE OF` columns changed.
    if (t.when === "other" || (t.when !== null && (t.of === null || [...t.when].sort().join() !== [...t.of].sort().join()))) continue;
    if (t.of === null) return "all";
    for (const column of t.of) columns.add(column);
  }
  return columns;
}

/**
 * The column naming the person whose `user_versions` row every insert, update and delete of a table moves
 * (their own rows of it), or null when some change of it moves none.
 */
export function personalCoverage(triggers: VersionTrigger[], table: string): string | null {
  const moving = triggers.filter((t) => t.table === table && "personColumn" in t.moves && t.when === null);
  const keys = new Set(moving.map((t) => ("personColumn" in t.moves ? t.moves.personColumn : "")));
  const every = (["INSERT", "UPDATE", "DELETE"] as const).every((event) =>
    moving.some((t) => t.event === event && (event !== "UPDATE" || t.of === null)),
  );
  return every && keys.size === 1 ? [...keys][0] : null;
}
