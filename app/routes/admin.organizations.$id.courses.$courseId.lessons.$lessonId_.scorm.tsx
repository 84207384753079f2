import { ScormPackagePage, scormPackageAction, scormPackageLoader } from "~/screens/lesson-scorm";

export const loader = scormPackageLoader("admin");
export const action = scormPackageAction("admin");
export default ScormPackagePage;
