import { useEffect } from "react";
import { Form, useActionData, useNavigation } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import type { PackagePlayerData, PlayerItem } from "~/models/packages/player.server";

/**
 * An xAPI or cmi5 lesson in the player (docs/decisions/044-xapi-cmi5-packages.md): the package's contents (a cmi5
 * course's blocks and assignable units, each with its state; an xAPI package's one activity) and a button per
 * AU that launches it. Each button posts a plain form: the page's action makes the launch and answers its address,
 * which the page opens at once with JavaScript and offers as a link without it; the content sends the learner
 * back here when it exits.
 * Retaking, and reviewing a finished course, start a new attempt; the earlier ones stay in the learner's history.
 */
export function PackagePlayer({ data, error }: { data: PackagePlayerData; error: boolean }) {
  const { t } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const launched = useActionData<{ launch?: { url: string; title: string } }>()?.launch;
  useEffect(() => {
    if (launched) window.location.assign(launched.url);
  }, [launched]);
  const aus = data.items.filter((i): i is Extract<PlayerItem, { type: "au" }> => i.type === "au");
  const single = aus.length === 1;
  return (
    <div className="package-player" data-testid="package-player">
      <div className="package-head">
        <h2 className="package-title">{data.title}</h2>
        <p className="hint">{t("packages.player.opensHere")}</p>
        <noscript>
          <p className="scorm-notice" data-testid="package-needs-js">
            {t("packages.player.needsJavaScript")}
          </p>
        </noscript>
        {launched ? (
          <p className="flash" role="status" data-testid="package-ready">
            <a href={launched.url} className="button primary" data-testid="package-open">
              {t("packages.player.open", { title: launched.title })}
            </a>
          </p>
        ) : null}
        {error ? (
          <p className="field-errors" role="alert" data-testid="package-launch-error">
            {t("packages.player.launchFailed")}
          </p>
        ) : null}
      </div>
      <ol className="package-contents" aria-label={t("packages.player.contents")} data-testid="package-contents">
        {data.items.map((item, position) =>
          item.type === "block" ? (
            <li key={`block-${position}`} className="package-block" style={{ paddingInlineStart: `${item.depth * 1.1}rem` }}>
              <h3 data-testid="package-block">{item.title}</h3>
            </li>
          ) : (
            <li key={item.id} className="package-au" style={{ paddingInlineStart: `${item.depth * 1.1}rem` }} data-testid="package-au">
              <span className={`package-dot ${item.state}`} aria-hidden="true" />
              <span className="package-au-title">{item.title}</span>
              <span className="package-state" data-testid="package-au-state" data-state={item.state}>
                {t(`packages.player.state.${item.state}`)}
                {item.score !== null ? ` · ${t("packages.player.score", { percent: item.score })}` : ""}
              </span>
              <Form method="post" className="package-launch">
                <input type="hidden" name="au" value={item.id} />
                <button
                  type="submit"
                  name="intent"
                  value="start"
                  className={single || item.state === "not_attempted" ? "primary" : undefined}
                  disabled={busy}
                  data-testid="package-launch"
                >
                  {item.state === "not_attempted" ? t("packages.player.start") : t("packages.player.resume")}
                  <span className="visually-hidden"> · {item.title}</span>
                </button>
              </Form>
            </li>
          ),
        )}
      </ol>
      {data.started ? (
        <Form method="post" className="package-again">
          <input type="hidden" name="au" value={aus[0]?.id ?? ""} />
          {data.satisfied ? (
            <button type="submit" name="intent" value="review" disabled={busy} data-testid="package-review">
              {t("packages.player.review")}
            </button>
          ) : null}{" "}
          <button type="submit" name="intent" value="retake" disabled={busy} data-testid="package-retake">
            {t("packages.player.retake")}
          </button>
          <p className="hint">
            {t("packages.player.retakeHelp")}
            {data.earlier > 0 ? ` ${t("packages.player.earlier", { count: data.earlier })}` : ""}
          </p>
        </Form>
      ) : null}
    </div>
  );
}
