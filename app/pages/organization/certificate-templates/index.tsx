import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { CertificateTemplates, templatesAction, templatesLoader } from "~/screens/certificate-templates";
import certificateStyles from "~/styles/certificates.css";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => templatesLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => templatesAction(areaOf(args.request))(args);
export default CertificateTemplates;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
