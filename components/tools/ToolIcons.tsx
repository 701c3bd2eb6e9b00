import type { ToolIcon } from "@/lib/tools/spec";

const SAFE_DATA = /^data:image\/(png|jpeg|webp|gif|svg\+xml);base64,[A-Za-z0-9+/=]+$/;

/** Only data: images and https URLs, always through <img> (an SVG there cannot run script). */
export function safeIconSrc(src: string): string | null {
  if (SAFE_DATA.test(src)) return src;
  try {
    return new URL(src).protocol === "https:" ? src : null;
  } catch {
    return null;
  }
}

export function ToolIcons({ icons, size = 28 }: { icons?: ToolIcon[]; size?: number }) {
  const usable = (icons ?? []).map((i) => ({ ...i, safe: safeIconSrc(i.src) })).filter((i) => i.safe);
  if (!usable.length) return null;
  const hasThemed = usable.some((i) => i.theme);
  return (
    <span className="inline-flex items-center gap-1">
      {usable.slice(0, 4).map((i, n) => (
        // eslint-disable-next-line @next/next/no-img-element
        <img
          key={n}
          src={i.safe!}
          alt=""
          width={size}
          height={size}
          referrerPolicy="no-referrer"
          className={`rounded ${hasThemed && i.theme === "dark" ? "hidden dark:inline" : ""} ${hasThemed && i.theme === "light" ? "dark:hidden" : ""}`}
        />
      ))}
    </span>
  );
}
