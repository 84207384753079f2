import { ImportStatus, importStatusAction, importStatusLoader, importStatusMeta } from "~/screens/user-import";

export const loader = importStatusLoader;
export const action = importStatusAction;
export const meta = importStatusMeta;
export default ImportStatus;
