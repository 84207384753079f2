import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { addRule } from "../../app/models/group-rules.server";
import { createGroup } from "../../app/models/group.server";
import { recomputeGroup } from "../../app/models/group-rule-members.server";
import { createOrganization } from "../../app/models/organization.server";
import { checkCsv, existingEmails, writeRows } from "../../app/models/user-import.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";

/**
 * Groups and import (issue 14): CSV import rows per second (check and one-transaction write of 50,000
 * rows) and the time to recompute a rule group over 10,000 people.
 */
export function benchGroups({ importRows = 50_000, recomputeUsers = 10_000 } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "lectern-bench-groups-"));
  const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir });
  try {
    const organization = createOrganization(platform.db, { dataDir }, { name: "Groups bench", urlPrefix: "groups", language: "en" });
    return platform.tenants.withTenant(organization.id, (db) => {
      const lines = ["First name,Last name,Phone,Email"];
      for (let i = 0; i < importRows; i++) lines.push(`Person${i},Name${i % 97},,person${i}@${i % 3 === 0 ? "sales." : ""}example.com`);
      let started = process.hrtime.bigint();
      const checked = checkCsv(Buffer.from(lines.join("\n")), existingEmails(db));
      if (checked.problems.length) throw new Error("bench file has problems");
      writeRows(db, checked.rows, { language: null, groupIds: [] });
      const importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const group = createGroup(db, { name: "Sales" });
      addRule(db, group.id, { field: "email", operator: "ends_with", value: "@sales.example.com" });
      // Recompute over the first `recomputeUsers` people: a second organization-sized group.
      db.$client.prepare("delete from users where id > ?").run(recomputeUsers);
      db.$client.prepare("delete from group_members").run();
      started = process.hrtime.bigint();
      const { added } = recomputeGroup(db, group.id);
      const recomputeMs = Number(process.hrtime.bigint() - started) / 1e6;
      return {
        importRows,
        importRowsPerSecond: Math.round(importRows / importSeconds),
        recomputeUsers,
        recomputeMs: Math.round(recomputeMs * 10) / 10,
        members: added,
      };
    });
  } finally {
    platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
