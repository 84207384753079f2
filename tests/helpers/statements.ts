import type Database from "better-sqlite3";

/**
 * Whether SQLite plans `source` again from the values bound to it, rather than once from its text: the
 * case of a LIMIT that is a lone bound parameter (db/planned-limit.ts). One `EXPLAIN` statement is run
 * twice, every parameter bound to 3 and then to 5 as INTEGERs (BigInt): its program can only differ if
 * SQLite prepared it again between the runs and used the values in the new plan.
 */
export function plannedFromBoundValues(sqlite: Database.Database, source: string) {
  const explain = sqlite.prepare(`explain ${source}`);
  const names = [...new Set([...source.matchAll(/[:@$]([A-Za-z_]\w*)/g)].map((m) => m[1]))];
  const program = (value: bigint) => {
    const rows = names.length ? explain.all(Object.fromEntries(names.map((n) => [n, value]))) : explain.all(...positional(explain, value));
    return JSON.stringify(rows);
  };
  return program(3n) !== program(5n);
}

/** As many values as the statement has positional parameters (better-sqlite3 does not say how many). */
function positional(statement: Database.Statement, value: bigint) {
  for (let count = 0; count <= 500; count++) {
    const values = Array<bigint>(count).fill(value);
    try {
      statement.all(...values);
      return values;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
    }
  }
  throw new Error(`no parameter count fits: ${statement.source}`);
}
