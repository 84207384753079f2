import { EditTemplate, templateAction, templateLoader } from "~/screens/certificate-template-editor";
import certificateStyles from "~/styles/certificates.css";

export const loader = templateLoader("dashboard");
export const action = templateAction("dashboard");
export default EditTemplate;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
