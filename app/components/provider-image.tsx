import { imageSources, type ImageBucket } from "~/utils/images";

/**
 * An image from the image provider: `src` is the signed address from `platform.imageUrl(...)` (without
 * `?w=`), `width` the CSS width it is laid out at. It carries a srcset of the bucket's allowed widths,
 * width and height (no layout shift), and loads lazily unless `priority` (the first screenful).
 */
export function ProviderImage({
  src,
  bucket,
  width,
  sizes,
  alt = "",
  priority = false,
  className,
}: {
  src: string;
  bucket: ImageBucket;
  width: number;
  sizes?: string;
  alt?: string;
  priority?: boolean;
  className?: string;
}) {
  const image = imageSources(src, bucket, { width });
  return (
    <img
      src={image.src}
      srcSet={image.srcSet}
      sizes={sizes ?? `${width}px`}
      width={image.width}
      height={image.height}
      alt={alt}
      loading={priority ? "eager" : "lazy"}
      decoding="async"
      className={className}
    />
  );
}
