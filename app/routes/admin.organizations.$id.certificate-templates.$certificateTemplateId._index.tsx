import { EditTemplate, templateAction, templateLoader } from "~/screens/certificate-template-editor";
import certificateStyles from "~/styles/certificates.css";

export const loader = templateLoader("admin");
export const action = templateAction("admin");
export default EditTemplate;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
