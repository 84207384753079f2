import { DeleteTemplate, deleteTemplateAction, deleteTemplateLoader } from "~/screens/certificate-templates";
import certificateStyles from "~/styles/certificates.css";

export const loader = deleteTemplateLoader("dashboard");
export const action = deleteTemplateAction("dashboard");
export default DeleteTemplate;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
