import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { formatBytes } from "~/utils/bytes";
import type { ContentPackageView } from "~/models/packages/package-view.server";

/** An installed xAPI or cmi5 package in the lesson editor: its kind, size and contents, as its manifest gives them. */
export function ContentPackageDetails({ pkg, preview }: { pkg: ContentPackageView; preview: string }) {
  const { t } = useTranslation();
  return (
    <div className="panel scorm-package" data-testid="content-package">
      <h3>{pkg.title}</h3>
      <dl>
        <dt>{t("packages.admin.kind")}</dt>
        <dd data-testid="content-package-kind">{t(`packages.admin.kinds.${pkg.kind}`)}</dd>
        {pkg.fileCount > 0 ? (
          <>
            <dt>{t("scorm.admin.files")}</dt>
            <dd>
              {t("scorm.admin.fileCount", { count: pkg.fileCount })} · {formatBytes(pkg.unpackedBytes)}
            </dd>
          </>
        ) : null}
      </dl>
      <h4>{pkg.kind === "xapi" ? t("packages.admin.activity") : t("packages.admin.structure")}</h4>
      <ol data-testid="content-package-structure">
        {pkg.rows.map((row, index) =>
          row.type === "block" ? (
            <li key={index} style={{ marginInlineStart: `${row.depth}rem` }}>
              <strong>{row.title}</strong>
            </li>
          ) : (
            <li key={index} style={{ marginInlineStart: `${row.depth}rem` }} data-testid="content-package-au">
              {row.title}{" "}
              <span className="hint">
                · {t("packages.admin.moveOn", { rule: t(`packages.moveOn.${row.moveOn}`) })}
                {row.masteryScore !== null ? ` · ${t("packages.admin.mastery", { percent: Math.round(row.masteryScore * 100) })}` : ""}
              </span>
              {row.external ? <span className="badge">{t("packages.admin.external")}</span> : null}
            </li>
          ),
        )}
      </ol>
      <p>
        <Link to={preview}>{t("scorm.admin.open")}</Link>
      </p>
    </div>
  );
}
