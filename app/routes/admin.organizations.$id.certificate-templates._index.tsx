import { CertificateTemplates, templatesAction, templatesLoader } from "~/screens/certificate-templates";

export const loader = templatesLoader("admin");
export const action = templatesAction("admin");
export default CertificateTemplates;
