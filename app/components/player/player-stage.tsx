import { useRevalidator } from "@remix-run/react";
import { QuizPlayer } from "~/components/quiz/quiz-player";
import { PackagePlayer } from "~/components/packages/package-player";
import { ScormPlayer } from "~/components/scorm/scorm-player";
import { useTranslation } from "~/utils/translate";
import type { LessonPageData } from "~/screens/lesson-page.server";
import { VideoPlayer } from "./video-player";

/**
 * The player page's stage: the lesson's video, image, SCORM, xAPI or cmi5 package or quiz (nothing for a text lesson, nor
 * when the lesson is closed to the viewer). `video` is the video's address, when there is one to play.
 */
export function PlayerStage({
  data,
  video,
  videoRef,
  onHelp,
}: {
  data: LessonPageData;
  video: string | null;
  videoRef: React.RefObject<HTMLVideoElement>;
  onHelp: () => void;
}) {
  const { lesson, course } = data;
  const revalidator = useRevalidator();
  const { t } = useTranslation();
  if (data.access || !(video || (lesson.kind === "image" && data.media) || data.scorm || data.quiz || lesson.kind === "package"))
    return null;
  return (
    <div className={`player-stage stage-${lesson.kind}`}>
      {video ? (
        <VideoPlayer
          lessonId={lesson.id}
          src={video}
          title={lesson.title}
          startAt={lesson.positionSeconds}
          poster={lesson.poster}
          knownDuration={lesson.durationSeconds}
          onHelp={onHelp}
          captions={data.captions}
          videoRef={videoRef}
        />
      ) : null}
      {lesson.kind === "image" && data.media ? <img src={data.media.url} alt={lesson.title} className="lesson-image" /> : null}
      {data.scorm ? <ScormPlayer lessonId={lesson.id} data={data.scorm} onLessonCompleted={() => revalidator.revalidate()} /> : null}
      {lesson.kind === "package" ? (
        data.contentPackage ? (
          <PackagePlayer data={data.contentPackage} error={data.launchError} />
        ) : (
          <p className="scorm-notice" data-testid="package-missing">
            {t("scorm.player.noPackage")}
          </p>
        )
      ) : null}
      {data.quiz ? (
        <QuizPlayer
          data={data.quiz}
          returnTo={`/courses/${course.id}/lessons/${lesson.id}`}
          lessonId={lesson.id}
          confirm={data.quizConfirm}
          error={data.quizError}
        />
      ) : null}
    </div>
  );
}
