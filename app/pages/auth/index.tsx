import { redirect } from "../../utils/redirect";

/** /auth itself has nothing to show: it is the way in. */
export function loader() {
  return redirect("/auth/login");
}
