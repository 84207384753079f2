import { DeleteTemplate, deleteTemplateAction, deleteTemplateLoader } from "~/screens/certificate-templates";
import certificateStyles from "~/styles/certificates.css";

export const loader = deleteTemplateLoader("admin");
export const action = deleteTemplateAction("admin");
export default DeleteTemplate;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
