import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { EditTemplate, templateAction, templateLoader } from "~/screens/certificate-template-editor";
import certificateStyles from "~/styles/certificates.css";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => templateLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => templateAction(areaOf(args.request))(args);
export default EditTemplate;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
