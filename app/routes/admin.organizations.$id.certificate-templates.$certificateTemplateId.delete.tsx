import { DeleteTemplate, deleteTemplateAction, deleteTemplateLoader } from "~/screens/certificate-templates";

export const loader = deleteTemplateLoader("admin");
export const action = deleteTemplateAction("admin");
export default DeleteTemplate;
