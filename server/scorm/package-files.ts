import type { TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { packageFile } from "../../app/models/scorm.server";
import { verifyScormToken } from "../../app/models/scorm-token.server";
import type { Platform } from "../platform";
import { packageOpenedBy } from "./access";
import { contentCsp } from "./csp";

/**
 * An xAPI or cmi5 package's files on the content origin (docs/decisions/044-xapi-cmi5-packages.md, 4 and 5):
 * `/c/<token>/<path>`, the token signed for the package's purpose (a SCORM token opens none of these, nor these
 * a SCORM package), access checked again for every file as SCORM's are. The content may run its own scripts
 * on this origin, be framed by the app's player, and reach the organization's LRS (`<app origin>/xapi/`, where
 * its launch points it) and nothing else.
 */
export function packageCsp(appOrigin: string) {
  return contentCsp(appOrigin, { connect: [`${appOrigin}/xapi/`], objects: "'none'" });
}

/** Sends the file a `/c/<token>/<rest>` address names, or calls `notFound`. Runs with the organization's database. */
export function sendPackageFile(
  platform: Platform,
  organization: Organization,
  db: TenantDb,
  { token, rest }: { token: string; rest: string },
  notFound: () => void,
) {
  const verified = verifyScormToken(platform, organization.id, token, Date.now(), "package");
  const opened = verified && packageOpenedBy(platform, organization, db, verified);
  if (!opened) return notFound();
  const file = packageFile(platform.dataDir, organization.id, opened.pkg, rest);
  if (!file) return notFound();
  return file;
}
