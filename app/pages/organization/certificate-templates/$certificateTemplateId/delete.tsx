import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteTemplate, deleteTemplateAction, deleteTemplateLoader } from "~/screens/certificate-templates";
import certificateStyles from "~/styles/certificates.css";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => deleteTemplateLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => deleteTemplateAction(areaOf(args.request))(args);
export default DeleteTemplate;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
