import { CertificateTemplates, templatesAction, templatesLoader } from "~/screens/certificate-templates";
import certificateStyles from "~/styles/certificates.css";

export const loader = templatesLoader("admin");
export const action = templatesAction("admin");
export default CertificateTemplates;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
