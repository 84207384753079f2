import { Form } from "@remix-run/react";

/**
 * A panel of /profile/settings that says how one of the person's own settings stands and turns it the other
 * way: a form posting `name=value` to `action` (works without JavaScript).
 */
export function ProfileSwitch({
  testId,
  title,
  state,
  stateTestId,
  action,
  name,
  value,
  button,
  buttonTestId,
}: {
  testId: string;
  title: string;
  state: string;
  stateTestId: string;
  action: string;
  name: string;
  value: string;
  button: string;
  buttonTestId: string;
}) {
  return (
    <div className="panel" data-testid={testId}>
      <h2>{title}</h2>
      <p data-testid={stateTestId}>{state}</p>
      <Form method="post" action={action}>
        <input type="hidden" name={name} value={value} />
        <button type="submit" data-testid={buttonTestId}>
          {button}
        </button>
      </Form>
    </div>
  );
}
