import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { getOwnCertificate } from "~/models/certificate.server";
import { certificatePdf } from "~/screens/certificate-pdf.server";
import { requireUser } from "~/kernel/auth.server";
import { requireOrganization } from "~/utils/tenant.server";
import certificateStyles from "~/styles/certificates.css";
import { pageMeta } from "~/utils/meta";
import { readForm } from "~/utils/form-data.server";

/**
 * One of the learner's certificates as a PDF: a redirect to the signed download once rendered; until
 * then "being prepared", and the page refreshes itself (a meta refresh, so no JavaScript is needed).
 * Another learner's certificate is not found.
 */
async function own(request: Request, context: LoaderFunctionArgs["context"], id: string | undefined) {
  const { organization, db } = requireOrganization(context);
  const auth = await requireUser(request, context);
  const certificate = /^\d{1,15}$/.test(id ?? "") ? getOwnCertificate(db, auth.person.id, Number(id)) : undefined;
  if (!certificate) throw new Response("Not Found", { status: 404 });
  return { organization, certificate };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { organization, certificate } = await own(request, context, params.id);
  const pdf = certificatePdf(context, organization, certificate);
  if (pdf.state === "ready" && pdf.url) throw redirect(pdf.url);
  return { title: certificate.courseTitle, state: pdf.state, error: pdf.state === "failed" ? pdf.error : null };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { organization, certificate } = await own(request, context, params.id);
  await readForm(request, context);
  certificatePdf(context, organization, certificate, { retry: true });
  return redirect(`/profile/certificates/${certificate.id}`);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, { title: data?.title ?? "" }, ...(data?.state === "preparing" ? [{ httpEquiv: "refresh", content: "2" }] : []));

export default function CertificatePdf() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof loader>();
  return (
    <section className="certificate-preparing" data-testid={`pdf-${data.state}`}>
      <h1>{data.title}</h1>
      {data.state === "failed" ? (
        <>
          <p className="form-message" role="alert">
            {t("certificates.learner.failed")}
          </p>
          <Form method="post">
            <button type="submit" className="primary">
              {t("certificates.learner.retry")}
            </button>
          </Form>
        </>
      ) : (
        <>
          <p className="preparing" role="status">
            <span className="spinner" aria-hidden="true" /> {t("certificates.learner.preparing")}
          </p>
          <p className="muted">{t("certificates.learner.preparingHelp")}</p>
        </>
      )}
      <p>
        <Link to="/profile/certificates">← {t("profile.certificates")}</Link>
      </p>
    </section>
  );
}

export const links = () => [{ rel: "stylesheet", href: certificateStyles }];
