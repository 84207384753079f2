/**
 * The image provider's presets (docs/product.md §7 "Images are served through an image provider under a bucket path,
 * webp at 2x density"). A bucket fixes the shape and the widths a page may ask for, in CSS pixels; the
 * provider renders twice that many pixels. Nothing outside these lists is ever resized.
 */
export const IMAGE_BUCKETS = {
  /** Course, carousel, category and group covers: 16:9, cropped. */
  cover: { aspect: 16 / 9, fit: "cover", widths: [160, 240, 320, 480, 640, 960, 1280, 1920] },
  /** Avatars, badges, small tiles: square, cropped. */
  square: { aspect: 1, fit: "cover", widths: [32, 48, 64, 96, 128, 192, 256] },
  /** Logos and images in lessons: their own shape, never cropped. */
  fit: { aspect: null, fit: "inside", widths: [64, 128, 240, 320, 480, 640, 960, 1280] },
  /** An organization's icon made from its logo (server/favicon.ts): square, the whole logo on a transparent ground. */
  icon: { aspect: 1, fit: "contain", widths: [32] },
} as const satisfies Record<string, { aspect: number | null; fit: "cover" | "inside" | "contain"; widths: readonly number[] }>;

export type ImageBucket = keyof typeof IMAGE_BUCKETS;

export function isImageBucket(value: string): value is ImageBucket {
  return Object.hasOwn(IMAGE_BUCKETS, value);
}

/** The provider renders this many device pixels per CSS pixel asked for. */
export const IMAGE_DENSITY = 2;

/**
 * `src`, `srcset` and intrinsic size for an <img> of a provider image (`base` is the signed address without
 * `?w=`): one candidate per allowed width up to `maxWidth`, described by the pixels it really has.
 */
export function imageSources(base: string, bucket: ImageBucket, { width, maxWidth = Infinity }: { width: number; maxWidth?: number }) {
  const preset = IMAGE_BUCKETS[bucket];
  const allowed: readonly number[] = preset.widths;
  const fallback = allowed.find((w) => w >= width) ?? allowed[allowed.length - 1];
  const candidates = allowed.filter((w) => w <= Math.max(maxWidth, fallback));
  return {
    src: `${base}?w=${fallback}`,
    srcSet: candidates.map((w) => `${base}?w=${w} ${w * IMAGE_DENSITY}w`).join(", "),
    width,
    height: preset.aspect ? Math.round(width / preset.aspect) : undefined,
  };
}
