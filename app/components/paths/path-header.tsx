import { Form, Link } from "@remix-run/react";
import type { PathPageData } from "~/screens/paths.server";
import { StateBadge } from "~/components/assignment-state";
import { ProviderImage } from "~/components/provider-image";
import { useTranslation } from "~/utils/translate";

/**
 * The head of a path's page (issue 49): what the path is, the person's progress on it, and one thing to do:
 * continue at the next lesson, enrol (a plain form), or sign in; or why they cannot enrol.
 */
export function PathHeader({ data }: { data: PathPageData }) {
  const { t } = useTranslation();
  const { path } = data;
  return (
    <header className={path.cover ? "path-hero with-cover" : "path-hero"}>
      <div className="path-hero-content">
        <p className="breadcrumb">
          <Link to="/paths">← {t("paths.title")}</Link>
        </p>
        <p className="path-facts">
          <span className="path-kicker">{t("paths.kicker")}</span>
          <span>{t("paths.steps", { count: data.steps.length })}</span>
          <span>{t("paths.courses", { count: data.courseCount })}</span>
          {path.certificates ? <span>{t("paths.certificate")}</span> : null}
          {path.points > 0 ? <span>{t("paths.points", { count: path.points })}</span> : null}
        </p>
        <h1>{path.title}</h1>
        {path.description ? <div className="path-description" dangerouslySetInnerHTML={{ __html: path.description }} /> : null}
        {data.due ? (
          <p className="path-due" data-testid="path-due">
            <span>{t("paths.dueOn", { date: data.due.on })}</span> <StateBadge state={data.due.state} />
          </p>
        ) : null}
        {data.percent !== null ? (
          <div className="path-progress" data-testid="path-progress">
            <span className="progress-text">
              <span>
                {data.doneOn ? t("paths.doneOn", { date: data.doneOn }) : data.assigned ? t("paths.assigned") : t("paths.enrolled")}
              </span>
              <span className="progress-line">{t("paths.percent", { percent: data.percent })}</span>
            </span>
            <span className="meter" role="presentation">
              <span style={{ width: `${data.percent}%` }} />
            </span>
          </div>
        ) : null}
        <div className="path-actions">
          <PathAction data={data} />
        </div>
      </div>
      {path.cover ? (
        <div className="path-hero-media">
          <ProviderImage src={path.cover} bucket="cover" width={640} sizes="(max-width: 800px) 100vw, 26rem" priority />
        </div>
      ) : null}
    </header>
  );
}

function PathAction({ data }: { data: PathPageData }) {
  const { t } = useTranslation();
  if (data.expiredOn)
    return (
      <Form method="post" className="path-renew">
        <p data-testid="path-expired">{t("paths.expiredOn", { date: data.expiredOn })}</p>
        <button type="submit" name="intent" value="renew" className="primary" data-testid="path-renew">
          {t("paths.renew")}
        </button>
      </Form>
    );
  if (data.certificateId)
    return (
      <Link to={`/profile/certificates/${data.certificateId}`} className="button primary" data-testid="path-certificate">
        {t("paths.viewCertificate")}
      </Link>
    );
  if (data.next)
    return (
      <Link
        to={data.next.lessonId ? `/courses/${data.next.courseId}/lessons/${data.next.lessonId}` : `/courses/${data.next.courseId}`}
        className="button primary"
        data-testid="path-continue"
      >
        <span className="path-continue-text">
          <span>{t("paths.continue")}</span>
          <small>{data.next.lessonTitle ? `${data.next.courseTitle} · ${data.next.lessonTitle}` : data.next.courseTitle}</small>
        </span>
      </Link>
    );
  if (data.mayEnrol)
    return (
      <Form method="post">
        <button type="submit" name="intent" value="enrol" className="primary" data-testid="path-enrol">
          {t("paths.enrol")}
        </button>
      </Form>
    );
  if (!data.signedIn)
    return (
      <Link to={data.loginUrl} className="button primary" data-testid="path-sign-in">
        {t("paths.signIn")}
      </Link>
    );
  if (!data.enrolled)
    return (
      <p className="path-note" data-testid="path-assigned-only">
        {t("paths.assignedOnly")}
      </p>
    );
  return null;
}
