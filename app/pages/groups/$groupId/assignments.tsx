import { Assignments } from "~/screens/assignments";

// A group admin assigns courses to their own group (issue 34); organization admins may use it too.
export { myGroupAssignmentsAction as action, myGroupAssignmentsLoader as loader } from "~/screens/assignments.server";
export default Assignments;
