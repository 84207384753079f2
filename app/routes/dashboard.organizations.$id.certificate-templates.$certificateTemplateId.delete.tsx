import { DeleteTemplate, deleteTemplateAction, deleteTemplateLoader } from "~/screens/certificate-templates";

export const loader = deleteTemplateLoader("dashboard");
export const action = deleteTemplateAction("dashboard");
export default DeleteTemplate;
