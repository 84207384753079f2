import type { AnchorHTMLAttributes } from "react";

/** An absolute path inside the app made only of characters a URL keeps as they are (ids, fixed words). */
export type AppPath = `/${string}`;

/**
 * A link in a long list (course cards, episodes): the same markup as Remix's `<Link to>` for an absolute
 * path (`data-discover`, so Remix still finds the route ahead of a click) and the same client-side
 * navigation on a plain click, without working out its address relative to the current route on every
 * render — Remix's Link and React Router's work it out three times each, which was a tenth of the course
 * page's CPU with its twenty episodes (docs/decisions/014-speed.md, "Pages"). It uses no hook and no
 * context, so its markup is a pure function of its props (docs/decisions/030-kept-markup.md): the router
 * is looked up when the link is clicked. A click with a modifier key, another button or another target is
 * left to the browser, as React Router leaves it, and so is a click before the app's code has started.
 */
export function ListLink(props: { to: AppPath } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const { to, onClick } = props;
  // The anchor's attributes copied by hand: `({ to, onClick, ...rest })` and `{...rest}` cost three times as
  // much to render as this (V8's object rest and spread on React's props), on the page's most frequent element.
  const attributes: AnchorHTMLAttributes<HTMLAnchorElement> & Record<string, unknown> = {};
  for (const name in props) if (name !== "to" && name !== "onClick") attributes[name] = props[name as keyof typeof props];
  attributes["data-discover"] = "true";
  attributes.href = to;
  attributes.onClick = (event) => {
    onClick?.(event);
    // The app's router: Remix's RemixBrowser puts it on window when it starts.
    const router = (window as unknown as { __remixRouter?: { navigate(to: string, options: { replace: boolean }): unknown } })
      .__remixRouter;
    if (!router || event.defaultPrevented || event.button || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    if (props.target && props.target !== "_self") return;
    event.preventDefault();
    // As React Router does: a link to the page already shown replaces its history entry.
    const here = location.pathname + location.search + location.hash;
    void router.navigate(to, { replace: here === to });
  };
  // eslint-disable-next-line jsx-a11y/anchor-has-content -- the content is the caller's children, in the attributes
  return <a {...attributes} />;
}
