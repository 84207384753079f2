import { anonymousViewer, type Viewer } from "../../app/access/viewer";
import { capabilitiesOf } from "../../app/utils/capabilities";
import type { TenantDb } from "../../db/open";
import type { User } from "../../db/tenant";

/**
 * The viewers the access rules' tests hold every kind of course or path against: a visitor, a learner in no
 * group, a learner in the given groups, and an admin (who may preview everything).
 */
export function ruleViewers(db: TenantDb, { loner, member, groupIds }: { loner: number; member: number; groupIds: number[] }) {
  const anyone = anonymousViewer(null, db, "en");
  const signedIn = (id: number, groups: number[]): Viewer => ({
    ...anyone,
    via: "cookie",
    person: { id } as User,
    role: "learner",
    capabilities: capabilitiesOf("learner"),
    groupIds: groups,
  });
  return {
    visitor: anyone,
    loner: signedIn(loner, []),
    member: signedIn(member, groupIds),
    admin: { ...signedIn(member, []), role: "admin", capabilities: capabilitiesOf("admin") } as Viewer,
  };
}
