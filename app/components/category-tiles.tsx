import { ListLink } from "./list-link";
import { useTranslation } from "~/utils/translate";
import { ProviderImage } from "~/components/provider-image";

export interface CategoryTile {
  id: number;
  name: string;
  /** The image provider's address of the cover, when the category has one. */
  cover: string | null;
  courses: number;
}

/** Categories as cover tiles with the name over the image (home and /categories). */
export function CategoryTiles({ categories, eager = 0 }: { categories: CategoryTile[]; eager?: number }) {
  const { t } = useTranslation();
  return (
    <ul className="tile-grid" data-testid="category-tiles">
      {categories.map((c, i) => (
        <li key={c.id} className="tile" data-category={c.name}>
          {c.cover ? (
            <ProviderImage
              src={c.cover}
              bucket="cover"
              width={320}
              sizes="(max-width: 600px) 45vw, 320px"
              priority={i < eager}
              className="tile-cover"
            />
          ) : (
            <div className="card-placeholder tile-cover" aria-hidden="true" data-hue={c.id % 6} />
          )}
          <div className="tile-text">
            <ListLink to={`/categories/${c.id}`} className="tile-link">
              {c.name}
            </ListLink>
            <span className="tile-count">{t("browse.courseCount", { count: c.courses })}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}
