import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { IssuedCertificates, issuedCertificatesAction, issuedCertificatesLoader } from "~/screens/issued-certificates";
import certificateStyles from "~/styles/certificates.css";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => issuedCertificatesLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => issuedCertificatesAction(areaOf(args.request))(args);
export default IssuedCertificates;

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
