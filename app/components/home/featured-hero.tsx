import { ListLink } from "~/components/list-link";
import { CourseFacts, ProgressBar } from "~/components/course-cards";
import { ProviderImage } from "~/components/provider-image";
import { useTranslation } from "~/utils/translate";
import type { OrganizationHome } from "./home-data";

/** The organization's featured course as the home page's hero: its cover, facts, description and a play button. */
export function FeaturedHero({ featured }: { featured: NonNullable<OrganizationHome["featured"]> }) {
  const { t } = useTranslation();
  const started = featured.progress != null && featured.progress < 100;
  return (
    <section className={featured.cover ? "hero with-cover" : "hero"} data-testid="featured" aria-labelledby="featured-title">
      {featured.cover ? (
        <ProviderImage
          src={featured.cover}
          bucket="cover"
          width={1280}
          sizes="(max-width: 1280px) 100vw, 1280px"
          priority
          className="hero-cover"
        />
      ) : null}
      <div className="hero-text">
        <span className="hero-label">{t("home.featured")}</span>
        <h2 id="featured-title" className="hero-title">
          {featured.title}
        </h2>
        <CourseFacts course={featured} />
        {featured.description ? <p className="hero-description">{featured.description}</p> : null}
        {started ? <ProgressBar percent={featured.progress!} /> : null}
        <div className="hero-actions">
          <ListLink className="button primary play" to={`/courses/${featured.id}`} data-testid="featured-play">
            <span aria-hidden="true">▶ </span>
            {started ? t("learn.continue") : t("learn.start")}
          </ListLink>
        </div>
      </div>
    </section>
  );
}
