/**
 * Inline SVG icons (decorative: `aria-hidden`, the accessible name comes from the text beside them).
 * Directional icons carry `rtl:-scale-x-100` so they point the reading direction in Arabic.
 */
type IconProps = { className?: string };

const base = "inline-block shrink-0";

function Svg({ className = "size-5", children }: IconProps & { children: React.ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={`${base} ${className}`}
    >
      {children}
    </svg>
  );
}

/** An arrow pointing forward in the reading direction (right in English, left in Arabic). */
export function ArrowForward({ className = "size-4" }: IconProps) {
  return (
    <Svg className={`${className} rtl:-scale-x-100`}>
      <path d="M5 12h14M13 6l6 6-6 6" />
    </Svg>
  );
}

/** An arrow pointing back in the reading direction. */
export function ArrowBack({ className = "size-4" }: IconProps) {
  return (
    <Svg className={`${className} rtl:-scale-x-100`}>
      <path d="M19 12H5M11 6l-6 6 6 6" />
    </Svg>
  );
}

/** Opens elsewhere (a new site); flipped in right-to-left text. */
export function ExternalIcon({ className = "size-4" }: IconProps) {
  return (
    <Svg className={`${className} rtl:-scale-x-100`}>
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </Svg>
  );
}

export function MenuIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M4 7h16M4 12h16M4 17h16" />
    </Svg>
  );
}

export function CloseIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M6 6l12 12M18 6L6 18" />
    </Svg>
  );
}

export function CheckIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </Svg>
  );
}

export function MailIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="M3.5 6.5l8.5 6.5 8.5-6.5" />
    </Svg>
  );
}

export function PinIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M12 21s-7-6.2-7-11.5a7 7 0 0 1 14 0C19 14.8 12 21 12 21z" />
      <circle cx="12" cy="9.5" r="2.5" />
    </Svg>
  );
}

export function RssIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M5 5a14 14 0 0 1 14 14M5 11a8 8 0 0 1 8 8" />
      <circle cx="6" cy="18" r="1.2" fill="currentColor" />
    </Svg>
  );
}

export function LinkedInIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <rect x="3" y="3" width="18" height="18" rx="3" />
      <path d="M8 10v7M8 7v.01M12 17v-4a2 2 0 0 1 4 0v4M12 10v7" />
    </Svg>
  );
}

export function FacebookIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <path d="M15 3h-2a4 4 0 0 0-4 4v3H7v3h2v8h3v-8h2.5l.5-3h-3V7a1 1 0 0 1 1-1h2z" />
    </Svg>
  );
}

export function YouTubeIcon({ className }: IconProps) {
  return (
    <Svg className={className}>
      <rect x="2.5" y="5.5" width="19" height="13" rx="4" />
      <path d="M10 9.5v5l4.5-2.5z" fill="currentColor" />
    </Svg>
  );
}
