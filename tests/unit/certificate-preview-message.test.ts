import { describe, expect, it } from "vitest";
import { previewFailure, renderPreviewPng, type Renderer } from "~/models/certificate-render.server";
import { DEFAULT_LAYOUT } from "~/models/certificate-templates.server";
import { resources } from "~/utils/i18n.server";
import { LANGUAGES } from "~/utils/i18n";
import { RendererBusyError, RendererUnavailableError, RenderTimeoutError } from "../../server/pdf-renderer";

/**
 * Which words a certificate preview that was not drawn gets (issue 30, defect 12c): a busy or slow renderer
 * is not the background image's fault, least of all for a template without one.
 */
const env = {
  dataDir: "/nonexistent",
  organization: { id: 1, name: "Acme Academy", logo: null, language: "en" },
  origin: "http://acme.localhost",
} as never;
const sample = { learnerName: "Ada Lovelace", courseTitle: "Safety", language: "en" };
const noBackground = { ...DEFAULT_LAYOUT, backgroundFileId: null, showLogo: false, showQr: false };

function failing(error: Error): Renderer {
  return { pdf: () => Promise.reject(error), png: () => Promise.reject(error) };
}

function text(key: string, language: string) {
  const [, group, leaf] = key.split(".");
  const strings = resources[language as (typeof LANGUAGES)[number]].common.certificates as Record<string, Record<string, string>>;
  return strings[group][leaf];
}

describe("the message of a certificate preview that was not drawn", () => {
  it("does not blame a background image for a template without one, whatever the renderer was doing", async () => {
    expect(noBackground.backgroundFileId).toBeNull();
    for (const circumstances of [
      { stage: "starting", busy: true },
      { stage: "starting", busy: false },
      { stage: "drawing", busy: true },
      { stage: "drawing", busy: false },
    ] as const) {
      const drawn = await renderPreviewPng(null as never, env, failing(new RenderTimeoutError(100, circumstances)), noBackground, sample);
      expect(drawn, JSON.stringify(circumstances)).toEqual({
        failure: { message: "certificates.errors.busy", code: "render_timeout", retryAfterSeconds: 5 },
      });
    }
  });

  it("blames the background only when there is one and the renderer, alone, timed out drawing the page", () => {
    const withBackground = { backgroundUri: "data:image/png;base64,AAAA" };
    const timeout = (stage: "starting" | "drawing", busy: boolean) => new RenderTimeoutError(100, { stage, busy });
    expect(previewFailure(timeout("drawing", false), withBackground)?.message).toBe("certificates.errors.backgroundTooHeavy");
    expect(previewFailure(timeout("drawing", true), withBackground)?.message).toBe("certificates.errors.busy");
    expect(previewFailure(timeout("starting", false), withBackground)?.message).toBe("certificates.errors.busy");
    expect(previewFailure(timeout("drawing", false), { backgroundUri: null })?.message).toBe("certificates.errors.busy");
  });

  it("says the renderer is missing when it is, and lets any other error through", async () => {
    const missing = await renderPreviewPng(null as never, env, failing(new RendererUnavailableError("no Chromium")), noBackground, sample);
    expect(missing).toEqual({
      failure: { message: "certificates.errors.renderer", code: "renderer_unavailable", retryAfterSeconds: null },
    });
    const full = await renderPreviewPng(null as never, env, failing(new RendererBusyError(32)), noBackground, sample);
    expect(full).toEqual({ failure: { message: "certificates.errors.busy", code: "render_timeout", retryAfterSeconds: 5 } });
    await expect(renderPreviewPng(null as never, env, failing(new TypeError("a bug")), noBackground, sample)).rejects.toThrow("a bug");
  });

  it("has the busy message in every language, without a word about background images", () => {
    expect(text("certificates.errors.busy", "en")).toBe("The certificate could not be made right now. Try again in a moment.");
    for (const language of LANGUAGES) {
      expect(text("certificates.errors.busy", language), language).not.toMatch(/background|tła|baggrund|bakgrunn|bakgrund/i);
      expect(text("certificates.errors.backgroundTooHeavy", language), language).toMatch(/background|tła|baggrund|bakgrunn|bakgrund/i);
    }
  });
});
