import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { FormMessage } from "~/components/form";
import { apiTokenView, createApiToken, DEFAULT_TOKEN_DAYS, listApiTokens, MAX_TOKEN_DAYS, revokeApiToken } from "~/models/auth/api-token.server";
import { CAPABILITIES, CAPABILITY_GROUPS } from "~/utils/capabilities";
import { redirectWithFlash } from "~/utils/flash.server";
import { formatDate } from "~/utils/i18n";
import { withManagedOrganization, type Area } from "~/utils/manage.server";

/**
 * An organization's API tokens (spec §2 admin tab "api"; permissions issue item 3): list with last use,
 * create with a name, capabilities and a lifetime (the secret is shown once), revoke.
 */
const createSchema = z.object({
  name: z.string().trim().min(1, "validation.required").max(100),
  capabilities: z.array(z.enum(CAPABILITIES)).min(1, "validation.required"),
  days: z.coerce.number().int().min(1).max(MAX_TOKEN_DAYS).default(DEFAULT_TOKEN_DAYS),
});

export function tokensLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:api-token" }, ({ db }) => ({
      tokens: listApiTokens(db).map(apiTokenView),
      maxDays: MAX_TOKEN_DAYS,
      defaultDays: DEFAULT_TOKEN_DAYS,
    }));
}

export function tokensAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "manage:api-token" }, async ({ db, auth, base }) => {
      const formData = await request.formData();
      if (formData.get("intent") === "revoke") {
        revokeApiToken(db, Number(formData.get("id")));
        return redirectWithFlash(`${base}/api`, "flash.tokenRevoked");
      }
      const parsed = createSchema.safeParse({ ...Object.fromEntries(formData), capabilities: formData.getAll("capabilities") });
      if (!parsed.success) return json({ token: null, errors: parsed.error.issues.map((i) => i.message) }, { status: 400 });
      const result = createApiToken(db, {
        // A super-admin's token belongs to the organization; an admin's is bounded by its maker.
        userId: area === "admin" ? null : auth.person.id,
        name: parsed.data.name,
        capabilities: parsed.data.capabilities,
        ceiling: auth.capabilities,
        days: parsed.data.days,
      });
      if ("error" in result) return json({ token: null, errors: ["api.beyondOwnCapabilities"] }, { status: 400 });
      return json({ token: result.token, errors: [] as string[] });
    });
}

export function TokensScreen() {
  const { t } = useTranslation();
  const { tokens, maxDays, defaultDays } = useLoaderData<ReturnType<ReturnType<typeof tokensLoader>> extends Promise<infer T> ? T : never>();
  const result = useActionData<{ token: string | null; errors: string[] }>();
  return (
    <section>
      <h2>{t("tokens.title")}</h2>
      <p className="hint">{t("tokens.intro")}</p>
      {result?.token ? (
        <div className="panel" role="status">
          <p>{t("tokens.created")}</p>
          <code className="secret" data-testid="new-token">
            {result.token}
          </code>
        </div>
      ) : null}
      {tokens.length === 0 ? (
        <p className="empty-state">{t("tokens.empty")}</p>
      ) : (
        <table className="table" data-testid="tokens">
          <thead>
            <tr>
              <th>{t("tokens.name")}</th>
              <th>{t("tokens.capabilities")}</th>
              <th>{t("tokens.expires")}</th>
              <th>{t("tokens.lastUsed")}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td>{token.capabilities.join(", ")}</td>
                <td>{formatDate(token.expires_at)}</td>
                <td>{token.last_used_at ? formatDate(token.last_used_at) : t("tokens.never")}</td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="id" value={token.id} />
                    <button type="submit" name="intent" value="revoke" className="danger">
                      {t("tokens.revoke")}
                    </button>
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form method="post" className="panel">
        <h3>{t("tokens.create")}</h3>
        <FormMessage>{result?.errors.map((e) => t(e, { capabilities: "" })).join(" ")}</FormMessage>
        <div className="field">
          <label htmlFor="token-name">{t("tokens.name")}</label>
          <input id="token-name" name="name" required maxLength={100} />
        </div>
        <fieldset className="capabilities">
          <legend>{t("tokens.capabilities")}</legend>
          {CAPABILITY_GROUPS.map((group) => (
            <div key={group.id}>
              <strong>{t(`capabilityGroups.${group.id}`)}</strong>
              {group.capabilities.map((c) => (
                <label key={c} className="check">
                  <input type="checkbox" name="capabilities" value={c} /> {t(`capabilities.${c}`)} <code>{c}</code>
                </label>
              ))}
            </div>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="token-days">{t("tokens.days")}</label>
          <input id="token-days" name="days" type="number" min={1} max={maxDays} defaultValue={defaultDays} />
        </div>
        <button type="submit" name="intent" value="create" className="primary">
          {t("tokens.create")}
        </button>
      </Form>
    </section>
  );
}
