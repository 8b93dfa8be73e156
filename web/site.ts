/**
 * Facts about the studio shown across the site (spec §1: support e-mail, US office with a map link; footer
 * social links). Edit here; they are not secrets and reach the browser.
 */
const OFFICE_LINES = ["30 N Gould St, Suite R", "Sheridan, WY 82801", "United States"] as const;

export const SITE = {
  supportEmail: "support@venturestudio.example",
  legalName: "Venture Studio LLC",
  /** The US office, as a postal address (shown in English in both locales). */
  office: {
    lines: OFFICE_LINES,
    street: "30 N Gould St, Suite R",
    locality: "Sheridan",
    region: "WY",
    postalCode: "82801",
    country: "US",
    mapUrl: `https://www.openstreetmap.org/search?query=${encodeURIComponent(OFFICE_LINES.join(", "))}`,
  },
  social: {
    linkedin: "https://www.linkedin.com/company/venture-studio-example",
    facebook: "https://www.facebook.com/venturestudio.example",
    youtube: "https://www.youtube.com/@venturestudio-example",
  },
  /** Date of the current privacy policy and terms of use (ISO). */
  legalUpdated: "2026-11-22",
} as const;
