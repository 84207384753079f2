import { NavLink } from "@remix-run/react";

/** The navigation of a management area or of one organization's tabs; plain links, no JavaScript. */
export function AreaNav({
  label,
  links,
  className = "area-nav",
}: {
  label: string;
  links: Array<{ to: string; label: string; end?: boolean }>;
  className?: string;
}) {
  return (
    <nav aria-label={label} className={className}>
      {links.map((link) => (
        <NavLink key={link.to} to={link.to} end={link.end} prefetch="intent">
          {link.label}
        </NavLink>
      ))}
    </nav>
  );
}
