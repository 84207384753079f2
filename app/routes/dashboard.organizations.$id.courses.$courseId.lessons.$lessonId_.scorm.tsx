import { ScormPackagePage, scormPackageAction, scormPackageLoader } from "~/screens/lesson-scorm";

export const loader = scormPackageLoader("dashboard");
export const action = scormPackageAction("dashboard");
export default ScormPackagePage;
