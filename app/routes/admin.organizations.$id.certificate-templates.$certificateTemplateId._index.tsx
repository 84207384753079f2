import { EditTemplate, templateAction, templateLoader } from "~/screens/certificate-template-editor";

export const loader = templateLoader("admin");
export const action = templateAction("admin");
export default EditTemplate;
