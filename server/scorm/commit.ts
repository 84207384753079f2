import type { Request, Response } from "express";
import type { TFunction } from "i18next";
import { z } from "zod";
import { DatabaseUnavailableError, type TenantDb } from "../../db/open";
import type { Organization } from "../../db/platform";
import { isBusyError, waitForWriteLock } from "../../db/write-lock";
import { attemptView, commitFromLaunch } from "../../app/models/scorm.server";
import { verifyScormToken } from "../../app/models/scorm-token.server";
import { isLanguage } from "../../app/utils/i18n";
import { getFixedT } from "../../app/utils/i18n.server";
import { formatBytes } from "../../app/utils/bytes";
import { BUSY_RETRY_AFTER_SECONDS } from "../status-page";
import { SIGNED_IN_BODY_BYTES } from "../body-limits";
import type { Platform } from "../platform";
import { openedBy } from "./access";

/**
 * `POST /p/<token>/__lectern/commit/<n>` on the content origin (docs/decisions/020-scorm.md "Commits"): the
 * launcher of the package's n-th item sends that SCO's commits here itself, on its own origin. A frame that
 * is being replaced (the learner picked another item) or closed (a closed tab, a reload) can still send a
 * `keepalive` request as it goes, where a message to the player page would be lost; and the SCO a commit
 * belongs to is the one its launch address names, never what a message says.
 *
 * The token is the launch's: signed, expiring, for one learner, lesson and package, and access is checked
 * again as for every content address. Only the launcher's own page may post (`Sec-Fetch-Site: same-origin`,
 * JSON, which another origin could only send after a preflight this origin never grants), and the body is
 * bounded as a signed-in person's is (1 MiB). This runs before the app's middleware, so it waits for
 * another process's write lock itself (decision 033). Replies are in the /api envelope's shape, translated
 * into the organization's language.
 */
const commitBody = z.object({
  launch: z.string().regex(/^[0-9a-z]{1,11}\.[0-9a-f]{16}$/),
  seq: z.number().int().min(1).max(1_000_000_000),
  terminate: z.boolean().default(false),
  cmi: z.record(z.string(), z.unknown()),
});

/** A launch handed out later than this (clock skew allowed) is not one this server made. */
const FUTURE_SLACK_MS = 60_000;

function reply(res: Response, status: number, payload: Record<string, unknown>) {
  if (res.headersSent) return;
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  if (status === 503) res.setHeader("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
  res.status(status).json(status < 400 ? { payload, status } : { error: true, payload, status });
}

/** The body, read up to the limit; null once it is over (then the 413 is sent and the rest dropped). */
function readBody(req: Request, onTooLarge: () => void): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      onTooLarge();
      req.resume();
      resolve(null);
    };
    if (Number(req.get("content-length") ?? 0) > SIGNED_IN_BODY_BYTES) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size < 0) return;
      size += chunk.length;
      if (size <= SIGNED_IN_BODY_BYTES) return void chunks.push(chunk);
      size = -1;
      tooLarge();
    });
    req.on("end", () => size >= 0 && resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function parse(text: string) {
  try {
    return commitBody.safeParse(JSON.parse(text));
  } catch {
    return commitBody.safeParse(undefined);
  }
}

export async function receiveCommit(
  platform: Platform,
  organization: Organization,
  address: { token: string; item: number },
  req: Request,
  res: Response,
) {
  const t: TFunction = await getFixedT(isLanguage(organization.language) ? organization.language : "en");
  const fail = (status: number, code: string, message: string) => reply(res, status, { code, message });
  const site = req.get("sec-fetch-site");
  if (site && site !== "same-origin") return fail(403, "cross_site", t("api.crossSite"));
  if (!/^application\/json\b/i.test(req.get("content-type") ?? "")) return fail(415, "invalid", t("api.invalid"));
  const text = await readBody(req, () => {
    res.setHeader("Connection", "close");
    fail(413, "too_large", t("api.tooLarge", { limit: formatBytes(SIGNED_IN_BODY_BYTES) }));
  }).catch(() => null);
  if (text === null) return;
  const body = parse(text);
  if (!body.success || parseInt(body.data.launch.split(".")[0]!, 36) > Date.now() + FUTURE_SLACK_MS)
    return fail(422, "invalid", t("api.invalid"));
  const token = verifyScormToken(platform, organization.id, address.token);
  if (!token) return fail(404, "not_found", t("api.notFound"));

  let gone = false;
  res.once("close", () => (gone = true));
  const work = async (db: TenantDb) => {
    const opened = openedBy(platform, organization, db, token);
    const item = opened?.pkg.items[address.item];
    if (!opened || !item) return fail(404, "not_found", t("api.notFound"));
    if (!(await waitForWriteLock(db.$client, { abandoned: () => gone }))) return fail(503, "unavailable", t("api.unavailable"));
    const { cmi, terminate, launch, seq } = body.data;
    const result = commitFromLaunch(db, {
      userId: token.userId,
      lesson: opened.lesson,
      pkg: opened.pkg,
      scoId: item.identifier,
      cmi,
      terminate,
      launch: { id: launch, seq },
    });
    if (result.ok)
      return reply(res, 200, {
        ...attemptView(result.attempt),
        lesson_completed: result.lessonCompleted,
        course_completed: result.courseCompleted,
      });
    if (result.problem === "invalid") {
      const fields: Record<string, string[]> = {};
      for (const p of result.problems) (fields[`cmi.${p.element}`] ??= []).push(t(`scorm.api.${p.problem}`));
      return reply(res, 422, { code: "invalid", message: t("api.invalid"), fields });
    }
    // "stale": the attempt ended since the launch (a renewal); "superseded": a later commit is stored already.
    return fail(409, result.problem, t(`scorm.api.${result.problem}`));
  };
  try {
    await platform.tenants.withTenant(organization.id, work);
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError) && !isBusyError(error)) throw error;
    fail(503, "unavailable", t("api.unavailable"));
  }
}
