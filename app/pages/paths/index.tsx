import { useLoaderData } from "@remix-run/react";
import { EmptyState } from "~/components/empty-state";
import { PathCards } from "~/components/paths/path-cards";
import type { pathsLoader } from "~/screens/paths.server";
import { useTranslation } from "~/utils/translate";

export { pathsLoader as loader } from "~/screens/paths.server";

/** /paths (issue 49): the learning paths a person is on, with their progress, then every other path they see. */
export default function Paths() {
  const { t } = useTranslation();
  const data = useLoaderData<typeof pathsLoader>();
  return (
    <section className="browse paths-page">
      <h1>{t("paths.title")}</h1>
      <p className="paths-intro">{t("paths.intro")}</p>
      {data.mine.length ? (
        <section className="row" aria-labelledby="paths-mine">
          <div className="row-head">
            <h2 id="paths-mine">{t("paths.yours")}</h2>
          </div>
          <PathCards paths={data.mine} labelledBy="paths-mine" testId="paths-mine" />
        </section>
      ) : null}
      {data.others.length ? (
        <section className="row" aria-labelledby="paths-others">
          <div className="row-head">
            <h2 id="paths-others">{data.mine.length ? t("paths.more") : t("paths.all")}</h2>
          </div>
          <PathCards paths={data.others} labelledBy="paths-others" testId="paths-others" />
        </section>
      ) : null}
      {data.mine.length + data.others.length === 0 ? (
        <EmptyState testId="paths-empty" title={t("paths.none")} body={t("paths.noneBody")} to="/categories" action={t("paths.browse")} />
      ) : null}
    </section>
  );
}
