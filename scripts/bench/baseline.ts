import type { AddressInfo } from "node:net";
import path from "node:path";
import Database from "better-sqlite3";
import express from "express";

/**
 * The bare baseline for `npm run bench`: Express and better-sqlite3 serving the same organization row
 * as Lectern's GET /api/resolve, with nothing else (no tenancy, security headers, Remix, i18n).
 */
const dataDir = process.env.DATA_DIR!;
const db = new Database(path.join(dataDir, "platform.sqlite"), { readonly: true });
const byPrefix = db.prepare("select * from organizations where url_prefix = ?");

const app = express();
app.get("*", (req, res) => {
  const prefix = (req.hostname ?? "").split(".")[0];
  const row = byPrefix.get(prefix);
  if (!row) return res.status(404).json({ error: true, status: 404 });
  res.json({ payload: row, status: 200 });
});
const server = app.listen(0, "127.0.0.1", () => {
  console.log(JSON.stringify({ msg: "listening", port: (server.address() as AddressInfo).port }));
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
