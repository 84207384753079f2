import { ImportUpload, importAction, importLoader } from "~/screens/user-import";

export const loader = importLoader;
export const action = importAction;
export default ImportUpload;
