import { CertificateTemplates, templatesAction, templatesLoader } from "~/screens/certificate-templates";

export const loader = templatesLoader("dashboard");
export const action = templatesAction("dashboard");
export default CertificateTemplates;
