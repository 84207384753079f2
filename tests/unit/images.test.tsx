// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { IMAGE_BUCKETS, imageSources } from "~/utils/images";

describe("imageSources", () => {
  it("offers every allowed width up to the largest wanted, described by its real pixels (2x)", () => {
    const s = imageSources("/images/cover/7/sig", "cover", { width: 300, maxWidth: 640 });
    expect(s.src).toBe("/images/cover/7/sig?w=320");
    expect(s.srcSet).toBe(
      "/images/cover/7/sig?w=160 320w, /images/cover/7/sig?w=240 480w, /images/cover/7/sig?w=320 640w, /images/cover/7/sig?w=480 960w, /images/cover/7/sig?w=640 1280w",
    );
    expect([s.width, s.height]).toEqual([300, 169]);
  });

  it("only ever asks for allowed widths", () => {
    for (const bucket of Object.keys(IMAGE_BUCKETS) as (keyof typeof IMAGE_BUCKETS)[]) {
      const s = imageSources("/x", bucket, { width: 5000 });
      const asked = [s.src, ...s.srcSet.split(", ").map((c) => c.split(" ")[0])].map((u) =>
        Number(new URL(u, "http://h").searchParams.get("w")),
      );
      for (const w of asked) expect(IMAGE_BUCKETS[bucket].widths as readonly number[]).toContain(w);
    }
    expect(imageSources("/x", "fit", { width: 100 }).height).toBeUndefined();
  });
});

describe("<ProviderImage>", () => {
  it("renders a lazy, sized image with the provider's srcset", async () => {
    const { render } = await import("@testing-library/react");
    const { ProviderImage } = await import("~/components/provider-image");
    const { container } = render(
      <ProviderImage src="/images/cover/3/sig" bucket="cover" width={320} sizes="(max-width: 600px) 50vw, 320px" alt="Cover" />,
    );
    const img = container.querySelector("img")!;
    expect(img.getAttribute("src")).toBe("/images/cover/3/sig?w=320");
    expect(img.getAttribute("srcset")).toContain("/images/cover/3/sig?w=640 1280w");
    expect([img.getAttribute("width"), img.getAttribute("height"), img.getAttribute("loading"), img.getAttribute("alt")]).toEqual([
      "320",
      "180",
      "lazy",
      "Cover",
    ]);
    expect(img.getAttribute("sizes")).toBe("(max-width: 600px) 50vw, 320px");
  });
});
