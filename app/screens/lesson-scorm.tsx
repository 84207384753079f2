import { Fragment } from "react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { getCourse } from "~/models/course.server";
import { getLesson } from "~/models/lesson.server";
import { getPackage, packageView } from "~/models/scorm.server";
import { installLessonPackage } from "~/models/packages/lesson-package.server";
import { contentPackageView } from "~/models/packages/package-view.server";
import { ContentPackageDetails } from "~/components/packages/package-details";
import { PackageWaivers } from "~/components/packages/package-waivers";
import { getContentPackage } from "~/models/packages/install.server";
import { waiverRows } from "~/models/packages/waiver-list.server";
import { waiveFromForm } from "~/models/packages/waiver-form.server";
import { formRefusal, readForm } from "~/utils/form-data.server";
import { getFixedT } from "~/utils/i18n.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { languageFor } from "~/utils/preferences.server";
import { formatBytes } from "~/utils/bytes";
import { handleUpload } from "~/kernel/upload.server";

/**
 * A lesson's package (issues 16 and 48), for /admin and /dashboard: upload or replace a SCORM, xAPI or cmi5 zip,
 * or a bare cmi5.xml, and see what its manifest says; the manifest decides the lesson's kind
 * (app/models/packages/lesson-package.server.ts). The form posts a file and redirects, so it works without
 * JavaScript; a refused package shows its translated reason and changes nothing.
 */
function lessonFrom(managed: Managed, params: LoaderFunctionArgs["params"]) {
  const course = /^\d{1,15}$/.test(params.courseId ?? "") ? getCourse(managed.db, Number(params.courseId)) : undefined;
  const lesson = course && /^\d{1,15}$/.test(params.lessonId ?? "") ? getLesson(managed.db, Number(params.lessonId)) : undefined;
  if (!course || !lesson || lesson.courseId !== course.id) throw new Response("Not Found", { status: 404 });
  return { course, lesson };
}

export function scormPackageLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const { course, lesson } = lessonFrom(managed, params);
      const pkg = lesson.kind === "package" ? undefined : getPackage(managed.db, lesson.id);
      const content = lesson.kind === "package" ? getContentPackage(managed.db, lesson.id) : undefined;
      const search = new URL(request.url).searchParams.get("q") ?? "";
      return {
        search,
        waivers: content?.kind === "cmi5" ? waiverRows(managed.db, content, { search, language: managed.viewer.language }) : null,
        content: lesson.kind === "package" ? contentPackageView(managed.db, lesson.id, managed.viewer.language) : null,
        back: `${managed.base}/courses/${course.id}/lessons/${lesson.id}`,
        course: { id: course.id, title: course.title },
        lesson: { id: lesson.id, title: lesson.title, kind: lesson.kind },
        pkg: pkg
          ? {
              ...packageView(pkg),
              size: formatBytes(pkg.unpackedBytes),
              // The chapters above each item, and whether learners see it (app/models/scorm/contents.ts).
              outline: pkg.items.map((i) => ({ headings: (i.headings ?? []).filter((h) => !h.hidden), hidden: Boolean(i.hidden) })),
            }
          : null,
        installed: new URL(request.url).searchParams.get("installed") === "1",
        preview: `/courses/${course.id}/lessons/${lesson.id}`,
      };
    });
}

export function scormPackageAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const { lesson } = lessonFrom(managed, params);
      const t = await getFixedT(await languageFor(request, context));
      // A waiver is a plain form (intent=waive) on a cmi5 lesson's page; an upload is multipart.
      if (!/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
        const form = await readForm(request, context);
        if (form.get("intent") !== "waive" || getContentPackage(managed.db, lesson.id)?.kind !== "cmi5")
          throw await formRefusal(context, 400);
        const waived = waiveFromForm(managed.db, { lesson, form, origin: new URL(request.url).origin, language: managed.viewer.language });
        return json(waived.ok ? { waived: waived.title } : { waiverError: t(waived.key) }, { status: waived.ok ? 200 : 422 });
      }
      return handleUpload(
        request,
        context,
        { organizationId: managed.organization.id, field: "package", allowed: ["archive"], t },
        async (upload) => {
          const pending = upload.file();
          if (!pending || pending.size === 0) return json({ error: t("packages.admin.missing") }, { status: 400 });
          const installed = await installLessonPackage(managed.db, {
            dataDir: context.platform.dataDir,
            organizationId: managed.organization.id,
            lesson,
            file: pending.tempPath,
            uploadedBy: managed.area === "dashboard" ? managed.viewer.person.id : null,
          });
          if (!installed.ok) return json({ error: t(installed.key, installed.params), detail: installed.detail }, { status: 422 });
          return redirect(`${new URL(request.url).pathname}?installed=1`);
        },
        ({ status, message }) => json({ error: message }, { status }),
      );
    });
}

export function ScormPackagePage() {
  const { t } = useTranslation();
  const data = useLoaderData<ReturnType<ReturnType<typeof scormPackageLoader>>>();
  const action = useActionData<{ error?: string; detail?: string; waived?: string; waiverError?: string }>();
  const busy = useNavigation().state === "submitting";
  const { pkg } = data;
  return (
    <section className="scorm-package">
      <p>
        <Link to={data.back}>← {t("scorm.admin.back")}</Link>
      </p>
      <h2>{t("packages.admin.title", { lesson: data.lesson.title })}</h2>
      {data.installed && (pkg || data.content) && !action?.error ? (
        <p className="flash" role="status" data-testid="scorm-installed">
          {t("scorm.admin.installed")}
        </p>
      ) : null}
      {pkg ? (
        <div className="panel" data-testid="scorm-package">
          <h3>{pkg.title}</h3>
          <dl>
            <dt>{t("scorm.admin.version")}</dt>
            <dd data-testid="scorm-version">{t(`scorm.versions.v${pkg.version.replace(/[.-]/g, "_")}`)}</dd>
            <dt>{t("scorm.admin.files")}</dt>
            <dd>
              {t("scorm.admin.fileCount", { count: pkg.file_count })} · {pkg.size}
            </dd>
          </dl>
          <h4>{t("scorm.admin.items")}</h4>
          <ol data-testid="scorm-items">
            {pkg.items.map((item, index) => (
              <Fragment key={item.identifier}>
                {pkg.outline[index]!.headings.map((heading) => (
                  <li key={`${item.identifier}-${heading.depth}`} style={{ marginInlineStart: `${heading.depth}rem` }}>
                    <strong>{heading.title}</strong>
                  </li>
                ))}
                <li style={{ marginInlineStart: `${item.depth}rem` }}>
                  {item.title} {item.type === "asset" ? <span className="badge">{t("scorm.admin.asset")}</span> : null}
                  {pkg.outline[index]!.hidden ? <span className="badge">{t("scorm.admin.hidden")}</span> : null}
                </li>
              </Fragment>
            ))}
          </ol>
          <p>
            <Link to={data.preview}>{t("scorm.admin.open")}</Link>
          </p>
        </div>
      ) : data.content ? (
        <>
          <ContentPackageDetails pkg={data.content} preview={data.preview} />
          {data.waivers ? (
            <PackageWaivers rows={data.waivers} search={data.search} result={{ waived: action?.waived, error: action?.waiverError }} />
          ) : null}
        </>
      ) : (
        <p className="panel">{t("packages.admin.none")}</p>
      )}
      <Form method="post" encType="multipart/form-data" className="panel" data-testid="scorm-upload">
        <div className="field">
          <label htmlFor="package">{pkg || data.content ? t("packages.admin.replace") : t("packages.admin.upload")}</label>
          <input
            id="package"
            name="package"
            type="file"
            accept=".zip,application/zip,.xml,text/xml,application/xml"
            required
            aria-describedby="package-help"
          />
          <p id="package-help" className="hint">
            {t("packages.admin.help")}
          </p>
          {action?.error ? (
            <p className="field-errors" role="alert" data-testid="scorm-error">
              {action.error}
              {action.detail ? <code className="package-detail"> {action.detail}</code> : null}
            </p>
          ) : null}
        </div>
        <button type="submit" className="primary" disabled={busy} data-testid="scorm-submit">
          {busy ? t("scorm.admin.uploading") : pkg || data.content ? t("scorm.admin.replaceButton") : t("scorm.admin.uploadButton")}
        </button>
      </Form>
    </section>
  );
}
