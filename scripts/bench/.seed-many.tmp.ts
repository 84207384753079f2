import fs from "node:fs";
import { createCourse } from "../../app/models/course.server";
import { createOrganization } from "../../app/models/organization.server";
import { readConfig } from "../../server/config";
import { Platform } from "../../server/platform";
const dataDir = process.argv[2]; const count = Number(process.argv[3] ?? 1000);
fs.mkdirSync(dataDir, { recursive: true });
const platform = new Platform({ ...readConfig({} as NodeJS.ProcessEnv), DATA_DIR: dataDir, TENANT_POOL_SIZE: 4 });
for (let i = 1; i <= count; i++) {
  const organization = createOrganization(platform.db, { dataDir }, { name: `Organization ${i}`, urlPrefix: `org${i}`, language: "en" });
  const lease = platform.tenants.acquire(organization.id);
  lease.db.transaction((tx) => { for (let c = 1; c <= 5; c++) createCourse(tx, { title: `Course ${c} of organization ${i}`, description: "A course.", type: "series", published: true, position: c }); });
  platform.tenants.release(lease);
}
platform.close();
