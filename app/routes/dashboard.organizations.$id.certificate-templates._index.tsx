import { CertificateTemplates, templatesAction, templatesLoader } from "~/screens/certificate-templates";
import certificateStyles from "~/styles/certificates.css";

export const loader = templatesLoader("dashboard");
export const action = templatesAction("dashboard");
export default CertificateTemplates;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
