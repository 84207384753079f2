import { Link } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { ComplianceColumn } from "~/utils/compliance-query";
import { EmptyState } from "~/components/empty-state";
import { ComplianceChart } from "./chart";

/** The dashboard overview's compliance (issue 34): everyone's assigned courses by state today, linking to the report. */
export function ComplianceOverview({
  data,
  locale,
}: {
  data: { today: string; totals: Record<ComplianceColumn, number> };
  locale: string;
}) {
  const { t } = useTranslation();
  return (
    <section className="compliance-overview panel" aria-labelledby="compliance-overview-title" data-testid="compliance-overview">
      <div className="toolbar">
        <h2 id="compliance-overview-title">{t("compliance.chart.title")}</h2>
        <Link className="button" to="/dashboard/compliance">
          {t("compliance.open")}
        </Link>
      </div>
      {data.totals.assigned === 0 ? (
        <EmptyState title={t("compliance.empty.title")} body={t("compliance.empty.body")} compact />
      ) : (
        <ComplianceChart totals={data.totals} locale={locale} headingId="compliance-overview-title" />
      )}
    </section>
  );
}
