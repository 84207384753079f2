/**
 * The image of a level or badge: a hexagon in its colour with its initial. Drawn, not uploaded, so every
 * level and badge an admin creates has one at once (the same SVG is served to Open Badges at
 * /badges/classes/{id}/image).
 */
export function badgeSvg(name: string, color: string, size = 64) {
  const initial = (name.trim()[0] ?? "?").toUpperCase().replace(/[<>&"']/g, "");
  const safe = /^#[0-9a-fA-F]{6}$/.test(color) ? color : "#6366f1";
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 64 64" role="img"><path d="M32 2 58 17v30L32 62 6 47V17z" fill="${safe}"/><path d="M32 8 53 20v24L32 56 11 44V20z" fill="none" stroke="#fff" stroke-opacity=".45" stroke-width="2"/><text x="32" y="41" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="24" font-weight="700" fill="#fff">${initial}</text></svg>`;
}

export function BadgeImage({ name, color, size = 40 }: { name: string; color: string; size?: number }) {
  const initial = (name.trim()[0] ?? "?").toUpperCase();
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" className="badge-image">
      <path d="M32 2 58 17v30L32 62 6 47V17z" fill={/^#[0-9a-fA-F]{6}$/.test(color) ? color : "#6366f1"} />
      <path d="M32 8 53 20v24L32 56 11 44V20z" fill="none" stroke="#fff" strokeOpacity=".45" strokeWidth="2" />
      <text
        x="32"
        y="41"
        textAnchor="middle"
        fontFamily="DejaVu Sans, Liberation Sans, sans-serif"
        fontSize="24"
        fontWeight="700"
        fill="#fff"
      >
        {initial}
      </text>
    </svg>
  );
}
