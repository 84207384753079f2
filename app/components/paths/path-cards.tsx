import { ListLink } from "~/components/list-link";
import { ProviderImage } from "~/components/provider-image";
import { useTranslation } from "~/utils/translate";

/** A learning path as a card (issue 49): its cover, title, size, and the person's progress when they are on it. */
export interface PathCardData {
  id: number;
  title: string;
  cover: string | null;
  steps: number;
  courses: number;
  percent: number | null;
  done: boolean;
}

function PathCard({ path, eager, headingLevel }: { path: PathCardData; eager: boolean; headingLevel: 2 | 3 }) {
  const { t } = useTranslation();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <li className="card path-card" data-path={path.title} data-testid="path-card">
      <div className="card-media">
        {path.cover ? (
          <ProviderImage
            src={path.cover}
            bucket="cover"
            width={640}
            sizes="(max-width: 600px) 80vw, 640px"
            className="card-cover"
            priority={eager}
          />
        ) : (
          <div className="card-placeholder" data-hue={path.id % 6} aria-hidden="true">
            {path.title.charAt(0).toUpperCase()}
          </div>
        )}
        {path.percent !== null ? (
          <span className="card-progress" role="presentation">
            <span style={{ width: `${path.percent}%` }} />
          </span>
        ) : null}
      </div>
      <div className="card-body">
        <p className="card-facts">
          <span className="path-kicker">{t("paths.kicker")}</span>
          <span>{t("paths.steps", { count: path.steps })}</span>
          <span>{t("paths.courses", { count: path.courses })}</span>
        </p>
        <Heading className="course-title">
          <ListLink to={`/paths/${path.id}`} className="card-link">
            {path.title}
          </ListLink>
        </Heading>
        {path.percent !== null ? (
          <p className="card-facts" data-testid="path-card-progress">
            {path.done ? t("paths.done") : t("paths.percent", { percent: path.percent })}
          </p>
        ) : null}
      </div>
    </li>
  );
}

/** Paths as a grid, or as a row that scrolls sideways (the home page's "Your paths"). */
export function PathCards({
  paths,
  row,
  labelledBy,
  testId,
  headingLevel = 3,
}: {
  paths: PathCardData[];
  row?: boolean;
  labelledBy: string;
  testId: string;
  headingLevel?: 2 | 3;
}) {
  return (
    // A row scrolls sideways, so it takes focus for the keyboard (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region must take focus
    <ul className={row ? "row-track" : "card-grid"} aria-labelledby={labelledBy} data-testid={testId} tabIndex={row ? 0 : undefined}>
      {paths.map((p, i) => (
        <PathCard key={p.id} path={p} eager={i < 2} headingLevel={headingLevel} />
      ))}
    </ul>
  );
}
