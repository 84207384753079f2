// @vitest-environment happy-dom
import { createRemixStub } from "@remix-run/testing";
import { Link } from "@remix-run/react";
import { createMemoryRouter, RouterProvider } from "react-router-dom";
import { act, cleanup, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorPage } from "~/components/error-page";
import { ListLink } from "~/components/list-link";
import { LanguageSwitch } from "~/components/language-switch";
import { ThemeSwitch } from "~/components/theme-switch";
import { createTranslator, TranslatorProvider } from "~/utils/translate";
import da from "../../locales/da/common.json";
import en from "../../locales/en/common.json";

afterEach(cleanup);

function renderInRemix(ui: ReactNode, language: "en" | "da" = "en") {
  const translator = createTranslator(language, { en: { common: en }, da: { common: da } });
  const Stub = createRemixStub([{ path: "/", Component: () => <>{ui}</> }]);
  return render(
    <TranslatorProvider translator={translator}>
      <Stub />
    </TranslatorProvider>,
  );
}

describe("ErrorPage", () => {
  it("says the page could not be found, with a link to the home page", async () => {
    renderInRemix(<ErrorPage status={404} />);
    expect(await screen.findByRole("heading", { name: "This page could not be found" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Go to the home page" }).getAttribute("href")).toBe("/");
  });

  it("says 'Something went wrong' for any other failure", async () => {
    renderInRemix(<ErrorPage status={500} />);
    expect(await screen.findByRole("heading", { name: "Something went wrong" })).toBeTruthy();
  });

  it("speaks the visitor's language", async () => {
    renderInRemix(<ErrorPage status={503} />, "da");
    expect(await screen.findByRole("heading", { name: "Organisationen er midlertidigt utilgængelig" })).toBeTruthy();
  });

  it("says why a post was refused: not a form (415), or not readable (400)", async () => {
    renderInRemix(<ErrorPage status={415} />, "da");
    expect(
      await screen.findByText("Denne side tager imod en formular, og det, der blev sendt, er ikke en formular, så intet er ændret."),
    ).toBeTruthy();
    cleanup();
    renderInRemix(<ErrorPage status={400} />);
    expect(await screen.findByText("What was sent could not be read, so nothing was changed. Go back and try again.")).toBeTruthy();
  });
});

describe("ThemeSwitch", () => {
  it("is a form that posts the other theme to /theme and comes back to the page", async () => {
    const { container } = renderInRemix(<ThemeSwitch theme="dark" redirectTo="/courses?x=1" />);
    const button = await screen.findByRole("button", { name: "Light theme" });
    const form = button.closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("action")).toBe("/theme");
    expect(container.querySelector<HTMLInputElement>('input[name="theme"]')!.value).toBe("light");
    expect(container.querySelector<HTMLInputElement>('input[name="redirectTo"]')!.value).toBe("/courses?x=1");
  });
});

describe("LanguageSwitch", () => {
  it("offers all five languages by their own names, the current one selected", async () => {
    renderInRemix(<LanguageSwitch language="da" redirectTo="/" />, "da");
    const select = (await screen.findByRole("combobox")) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["English", "Polski", "Dansk", "Norsk", "Svenska"]);
    expect(select.value).toBe("da");
    expect(screen.getByRole("button", { name: "Skift sprog" }).closest("form")!.getAttribute("action")).toBe("/language");
  });
});

describe("ListLink", () => {
  const stub = () =>
    createRemixStub([
      {
        path: "/",
        Component: () => (
          <>
            <ListLink to="/courses/7" className="card-link">
              River safety
            </ListLink>
            <Link to="/courses/7" className="card-link">
              River safety
            </Link>
          </>
        ),
      },
      { path: "/courses/:id", Component: () => <h1>Course page</h1> },
    ]);

  it("has the same markup as Remix's Link to the same path", async () => {
    const Stub = stub();
    render(<Stub />);
    const [ours, remix] = await screen.findAllByRole("link", { name: "River safety" });
    expect(ours.outerHTML).toBe(remix.outerHTML);
    expect(ours.getAttribute("href")).toBe("/courses/7");
    expect(ours.getAttribute("data-discover")).toBe("true");
  });

  it("navigates in the page on a plain click with the app's router, and leaves a modified click to the browser", async () => {
    // What RemixBrowser does when the app starts: its router is put on window.
    const router = createMemoryRouter([
      {
        path: "/",
        Component: () => (
          <ListLink to="/courses/7" className="card-link">
            River safety
          </ListLink>
        ),
      },
      { path: "/courses/:id", Component: () => <h1>Course page</h1> },
    ]);
    (window as unknown as { __remixRouter?: unknown }).__remixRouter = router;
    try {
      render(<RouterProvider router={router} />);
      const ours = await screen.findByRole("link", { name: "River safety" });
      const modified = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0, ctrlKey: true });
      ours.dispatchEvent(modified);
      expect(modified.defaultPrevented).toBe(false);
      const middle = new MouseEvent("click", { bubbles: true, cancelable: true, button: 1 });
      ours.dispatchEvent(middle);
      expect(middle.defaultPrevented).toBe(false);
      expect(screen.queryByRole("heading", { name: "Course page" })).toBeNull();
      const plain = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
      act(() => void ours.dispatchEvent(plain));
      expect(plain.defaultPrevented).toBe(true);
      expect(await screen.findByRole("heading", { name: "Course page" })).toBeTruthy();
      expect(router.state.location.pathname).toBe("/courses/7");
    } finally {
      delete (window as unknown as { __remixRouter?: unknown }).__remixRouter;
    }
  });

  it("leaves a click to the browser before the app's code has started (no router yet)", async () => {
    const Stub = stub();
    render(<Stub />);
    const [ours] = await screen.findAllByRole("link", { name: "River safety" });
    const plain = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
    ours.dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(false);
  });
});
