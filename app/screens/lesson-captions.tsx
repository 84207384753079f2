import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { getCourse } from "~/models/course.server";
import { getLesson } from "~/models/lesson.server";
import { deleteTrack, getTrack, listTracks } from "~/models/captions.server";
import { getFixedT } from "~/utils/i18n.server";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";
import { receiveTrack, trackUrl, type TrackWarning } from "~/kernel/captions.server";
import { languageFor } from "~/utils/preferences.server";
import { readForm } from "~/utils/form-data.server";

/**
 * A video lesson's caption tracks (issue 35, docs/decisions/036-captions.md), for /admin and /dashboard: add a
 * WebVTT or SRT file per language with a label, replace or delete one. Every form posts, so it works without
 * JavaScript; a refused file shows which line is wrong and nothing is stored. A saved file redirects, unless
 * parts of it were left out: then the page answers the post itself, the success beside the list of what was
 * left out (line, quote, why).
 */
function lessonFrom(managed: Managed, params: LoaderFunctionArgs["params"]) {
  const course = /^\d{1,15}$/.test(params.courseId ?? "") ? getCourse(managed.db, Number(params.courseId)) : undefined;
  const lesson = course && /^\d{1,15}$/.test(params.lessonId ?? "") ? getLesson(managed.db, Number(params.lessonId)) : undefined;
  if (!course || !lesson || lesson.courseId !== course.id) throw new Response("Not Found", { status: 404 });
  return { course, lesson };
}

/** Languages offered in the form's list (any BCP 47 tag is taken). */
const COMMON_LANGUAGES = ["en", "da", "no", "sv", "pl", "de", "fi", "fr", "es", "it", "nl", "pt", "uk", "ar"];

export function lessonCaptionsLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, (managed) => {
      const { course, lesson } = lessonFrom(managed, params);
      const url = new URL(request.url);
      return {
        back: `${managed.base}/courses/${course.id}/lessons/${lesson.id}`,
        lesson: { id: lesson.id, title: lesson.title, kind: lesson.kind },
        preview: `/courses/${course.id}/lessons/${lesson.id}`,
        tracks: listTracks(managed.db, lesson.id).map((track) => ({
          id: track.id,
          language: track.language,
          label: track.label,
          cues: track.cueCount,
          url: trackUrl(context, managed.organization, managed.db, track)?.url ?? null,
        })),
        languages: COMMON_LANGUAGES,
        suggested: listTracks(managed.db, lesson.id).length ? "" : managed.organization.language,
        done: url.searchParams.get("saved") === "1" ? "saved" : url.searchParams.get("deleted") === "1" ? "deleted" : null,
      };
    });
}

export function lessonCaptionsAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:course" }, async (managed) => {
      const { lesson } = lessonFrom(managed, params);
      const t = await getFixedT(await languageFor(request, context));
      const here = new URL(request.url).pathname;
      const store = { dataDir: context.platform.dataDir, organizationId: managed.organization.id };
      if (!(request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
        const form = await readForm(request, context);
        const track = getTrack(managed.db, Number(form.get("track_id")) || -1);
        if (form.get("intent") !== "delete" || !track || track.lessonId !== lesson.id) throw new Response("Bad Request", { status: 400 });
        deleteTrack(managed.db, store, track);
        return redirect(`${here}?deleted=1`);
      }
      // A replacement names its track in the address (`?track=`), read before the body is.
      const trackId = Number(new URL(request.url).searchParams.get("track")) || null;
      const existing = trackId ? getTrack(managed.db, trackId) : undefined;
      if (trackId && (!existing || existing.lessonId !== lesson.id)) throw new Response("Not Found", { status: 404 });
      const result = await receiveTrack(request, context, {
        organizationId: managed.organization.id,
        lesson,
        db: managed.db,
        t,
        uploadedBy: managed.area === "dashboard" ? managed.viewer.person.id : null,
        existing,
      });
      if (!result.ok) return json({ error: result.message, track: trackId }, { status: result.status });
      if (result.warningCount) return json({ saved: true, warnings: result.warnings, warningCount: result.warningCount });
      return redirect(`${here}?saved=1`);
    });
}

export function LessonCaptionsPage() {
  const { t } = useTranslation();
  const data = useLoaderData<ReturnType<ReturnType<typeof lessonCaptionsLoader>>>();
  const action = useActionData<{
    error?: string;
    track?: number | null;
    saved?: boolean;
    warnings?: TrackWarning[];
    warningCount?: number;
  }>();
  const busy = useNavigation().state === "submitting";
  const error = (track: number | null) =>
    action?.error && (action.track ?? null) === track ? (
      <p className="field-errors" role="alert" data-testid="captions-error">
        {action.error}
      </p>
    ) : null;
  return (
    <section className="lesson-captions">
      <p>
        <Link to={data.back}>← {t("captions.admin.back")}</Link>
      </p>
      <h2>{t("captions.admin.title", { lesson: data.lesson.title })}</h2>
      <p className="hint">{t("captions.admin.intro")}</p>
      {data.done && !action?.error && !action?.saved ? (
        <p className="flash" role="status" data-testid="captions-done">
          {t(`captions.admin.${data.done}`)}
        </p>
      ) : null}
      {action?.saved ? <LeftOut warnings={action.warnings ?? []} count={action.warningCount ?? 0} /> : null}
      {data.lesson.kind !== "video" ? <p className="panel">{t("captions.errors.notVideo")}</p> : null}
      {data.tracks.length ? (
        <ul className="panel plain-list" data-testid="captions-tracks">
          {data.tracks.map((track) => (
            <li key={track.id} data-language={track.language}>
              <p>
                <strong lang={track.language}>{track.label}</strong> <span className="badge">{track.language}</span>{" "}
                <span className="hint">{t("captions.admin.cues", { count: track.cues })}</span>{" "}
                {track.url ? (
                  <a href={track.url} download>
                    {t("captions.admin.download")}
                  </a>
                ) : null}
              </p>
              <Form method="post" encType="multipart/form-data" action={`?track=${track.id}`} className="inline-form">
                <label htmlFor={`replace-${track.id}`}>{t("captions.admin.replace", { label: track.label })}</label>{" "}
                <input id={`replace-${track.id}`} name="file" type="file" accept=".vtt,.srt,text/vtt" required />{" "}
                <button type="submit" disabled={busy}>
                  {t("captions.admin.replaceButton")}
                </button>
              </Form>
              {error(track.id)}
              <Form method="post" className="inline-form">
                <input type="hidden" name="track_id" value={track.id} />
                <button type="submit" name="intent" value="delete" className="danger" data-testid={`captions-delete-${track.language}`}>
                  {t("captions.admin.delete", { label: track.label })}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="panel">{t("captions.admin.none")}</p>
      )}
      {data.lesson.kind === "video" ? (
        <Form method="post" encType="multipart/form-data" className="panel" data-testid="captions-upload">
          <h3>{t("captions.admin.add")}</h3>
          <div className="field">
            <label htmlFor="caption-file">{t("captions.admin.file")}</label>
            <input id="caption-file" name="file" type="file" accept=".vtt,.srt,text/vtt" required aria-describedby="caption-file-help" />
            <p id="caption-file-help" className="hint">
              {t("captions.admin.fileHelp")}
            </p>
          </div>
          <div className="field">
            <label htmlFor="caption-language">{t("captions.admin.language")}</label>
            <input
              id="caption-language"
              name="language"
              list="caption-languages"
              defaultValue={data.suggested}
              required
              pattern="[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}"
              aria-describedby="caption-language-help"
            />
            <datalist id="caption-languages">
              {data.languages.map((l) => (
                <option key={l} value={l} />
              ))}
            </datalist>
            <p id="caption-language-help" className="hint">
              {t("captions.admin.languageHelp")}
            </p>
          </div>
          <div className="field">
            <label htmlFor="caption-label">{t("captions.admin.label")}</label>
            <input id="caption-label" name="label" maxLength={60} aria-describedby="caption-label-help" />
            <p id="caption-label-help" className="hint">
              {t("captions.admin.labelHelp")}
            </p>
          </div>
          {error(null)}
          <button type="submit" className="primary" disabled={busy} data-testid="captions-submit">
            {busy ? t("captions.admin.uploading") : t("captions.admin.upload")}
          </button>
        </Form>
      ) : null}
      <p>
        <Link to={data.preview}>{t("captions.admin.open")}</Link>
      </p>
    </section>
  );
}

/** A saved file's success, with what was left out of it (the first 50, and how many more). */
function LeftOut({ warnings, count }: { warnings: TrackWarning[]; count: number }) {
  const { t } = useTranslation();
  return (
    <div className="flash" role="status" data-testid="captions-done">
      <p>{t("captions.admin.saved")}</p>
      <p>{t("captions.admin.leftOut", { count })}</p>
      <ul data-testid="captions-warnings">
        {warnings.map((w) => (
          <li key={`${w.line}-${w.problem}`}>{w.message}</li>
        ))}
      </ul>
      {count > warnings.length ? <p>{t("captions.warnings.more", { count: count - warnings.length })}</p> : null}
    </div>
  );
}
