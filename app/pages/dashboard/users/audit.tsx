import { AdminAudit, adminAuditLoader } from "~/screens/admin-audit";

// The audit of what admins did (issue 44): the organization admins' screen under the dashboard's people.
export const loader = adminAuditLoader;
export default AdminAudit;
