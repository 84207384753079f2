import { getFormProps, useForm } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "~/utils/translate";
import { parseForm } from "~/utils/form";
import { z } from "zod";
import { Field, FormMessage } from "~/components/form";
import { sendMagicLink } from "~/models/auth/mail.server";
import { exchangeMagicLink, isMagicLinkLive, requestMagicLink } from "~/models/auth/tokens.server";
import { passwordLoginEnabled } from "~/models/sso/drivers.server";
import { getUser } from "~/models/user.server";
import { emailSchema } from "~/utils/auth-schemas";
import { realmFor, sessionCookie, startSession } from "~/kernel/auth.server";
import { rememberDevice } from "~/kernel/sign-in.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { redirect, safeRedirectPath } from "~/utils/redirect";
import { requireOrganization } from "~/utils/tenant.server";
import { readForm } from "~/utils/form-data.server";

/**
 * Sign-in links (docs/product.md §7 "magic link"). A page opened with `?auth=<code>` lands here (server/protection.ts).
 * A GET never spends the code; the person confirms with one click, or the page submits itself when
 * JavaScript runs. Without a code, this page sends a new link.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { organization, db } = requireOrganization(context);
  // With e-mail and password off, people sign in through the organization's provider only.
  if (!passwordLoginEnabled(db)) throw redirect("/auth/login");
  const url = new URL(request.url);
  const code = url.searchParams.get("code");
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  if (!code) return { mode: "request" as const, organization: organization.name };
  return {
    mode: "exchange" as const,
    organization: organization.name,
    code,
    redirectTo,
    live: isMagicLinkLive(realmFor(context), code),
  };
}

const exchangeSchema = z.object({ intent: z.literal("exchange"), code: z.string().min(1).max(200), redirectTo: z.string().optional() });

export async function action({ request, context }: ActionFunctionArgs) {
  const { db } = requireOrganization(context);
  if (!passwordLoginEnabled(db)) throw redirect("/auth/login");
  const formData = await readForm(request, context);
  const realm = realmFor(context);
  if (formData.get("intent") === "exchange") {
    const parsed = parseForm(formData, exchangeSchema);
    const personId = parsed.status === "success" ? exchangeMagicLink(realm, parsed.value.code) : null;
    const person = personId ? getUser(db, personId) : undefined;
    if (parsed.status !== "success" || !person || person.disabledAt || !person.role) {
      return json({ exchangeError: "auth.magic.invalid" as string | null, result: null }, { status: 400 });
    }
    // The link proves the same thing the e-mailed code does: access to the mailbox.
    // It is a complete sign-in, so the browser becomes a known device of the person (login.tsx).
    const { token } = await startSession(request, context, realm, person, { kind: "web", skipTwoFactor: true });
    const headers = new Headers({ "Set-Cookie": await sessionCookie.serialize(token) });
    headers.append("Set-Cookie", await rememberDevice(context, realm, person));
    return redirect(safeRedirectPath(parsed.value.redirectTo), { headers });
  }
  const submission = parseForm(formData, emailSchema);
  if (submission.status !== "success") {
    return json({ exchangeError: null as string | null, result: submission.reply() }, { status: 400 });
  }
  const issued = requestMagicLink(realm, submission.value.email);
  if (issued) {
    sendMagicLink(context.platform, realm, issued.person, issued.code).catch((error) =>
      context.platform.log.error({ error: String(error) }, "sign-in link mail failed"),
    );
  }
  return redirectWithFlash("/auth/magic", "auth.reset.sent");
}

export default function MagicLink() {
  const data = useLoaderData<typeof loader>();
  return data.mode === "exchange" ? <Exchange {...data} /> : <RequestLink />;
}

function Exchange({ organization, code, redirectTo, live }: { organization: string; code: string; redirectTo: string; live: boolean }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const formRef = useRef<HTMLFormElement>(null);
  const failed = !live || Boolean(actionData && "exchangeError" in actionData && actionData.exchangeError);
  useEffect(() => {
    if (!failed) formRef.current?.requestSubmit();
  }, [failed]);
  return (
    <section className="auth-card">
      <h1>{t("auth.magic.title")}</h1>
      {failed ? (
        <>
          <FormMessage>{t("auth.magic.invalid")}</FormMessage>
          <p>
            <Link to="/auth/magic">{t("auth.magic.requestTitle")}</Link>
          </p>
        </>
      ) : (
        <Form method="post" ref={formRef}>
          <p>{t("auth.magic.intro", { organization })}</p>
          <input type="hidden" name="intent" value="exchange" />
          <input type="hidden" name="code" value={code} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" className="primary" data-testid="magic-continue">
            {t("auth.magic.submit")}
          </button>
        </Form>
      )}
    </section>
  );
}

function RequestLink() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useForm({
    lastResult: actionData && "result" in actionData ? actionData.result : undefined,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseForm(formData, emailSchema),
  });
  return (
    <section className="auth-card">
      <h1>{t("auth.magic.requestTitle")}</h1>
      <p>{t("auth.magic.requestIntro")}</p>
      <Form method="post" {...getFormProps(form)}>
        <Field label={t("auth.login.email")} field={fields.email} type="email" autoComplete="email" autoFocus />
        <button type="submit" className="primary">
          {t("auth.magic.requestSubmit")}
        </button>
      </Form>
    </section>
  );
}
