import { signScormToken, type Signer } from "../scorm-token.server";

/*
 * Where a learner's launch finds an xAPI or cmi5 package's files (docs/decisions/044-xapi-cmi5-packages.md, 4):
 * `<content origin>/c/<token>/` on the organization's content host, the token signed for packages (server/scorm/
 * package-files.ts checks it, and the learner's access, for every file). Handed out only by the player, after
 * its own check.
 */
export function packageContentBase(
  signer: Signer,
  {
    contentOrigin,
    organizationId,
    lessonId,
    userId,
    packageId,
    preview,
  }: { contentOrigin: string; organizationId: number; lessonId: number; userId: number; packageId: number; preview: boolean },
  now = Date.now(),
) {
  const token = signScormToken(signer, organizationId, { lessonId, userId, packageId, preview }, undefined, now, "package");
  return `${contentOrigin}/c/${token}/`;
}
