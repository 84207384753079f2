import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PathHeader } from "~/components/paths/path-header";
import { PathTimeline } from "~/components/paths/path-timeline";
import type { pathLoader } from "~/screens/paths.server";
import pathStyles from "~/styles/paths.css";
import { pageMeta } from "~/utils/meta";

export { pathAction as action, pathLoader as loader } from "~/screens/paths.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: pathStyles }];

export const meta: MetaFunction<typeof pathLoader> = ({ data, matches }) => pageMeta(matches, { title: data?.path.title ?? "" });

/** /paths/{id} (issue 49): a learning path, its progress and its steps as a timeline. */
export default function PathPage() {
  const data = useLoaderData<typeof pathLoader>();
  return (
    <article className="path-page">
      <PathHeader data={data} />
      <PathTimeline data={data} />
    </article>
  );
}
