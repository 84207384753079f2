import { EditTemplate, templateAction, templateLoader } from "~/screens/certificate-template-editor";

export const loader = templateLoader("dashboard");
export const action = templateAction("dashboard");
export default EditTemplate;
