import { Link } from "@remix-run/react";

/**
 * An empty list that helps (issue 18): what is missing, what to do about it, and a link to do it.
 * Plain markup and a link, so it works the same without JavaScript.
 */
export function EmptyState({
  title,
  body,
  to,
  action,
  testId,
  compact = false,
}: {
  title: string;
  body?: string;
  to?: string;
  action?: string;
  testId?: string;
  compact?: boolean;
}) {
  return (
    <div className={compact ? "empty-state empty-card compact" : "empty-state empty-card"} data-testid={testId}>
      <div className="empty-icon" aria-hidden="true" />
      <div className="empty-text">
        <p className="empty-title">{title}</p>
        {body ? <p className="empty-body">{body}</p> : null}
      </div>
      {to && action ? (
        <Link to={to} className="button primary empty-action">
          {action}
        </Link>
      ) : null}
    </div>
  );
}
