/**
 * Facts about the studio shown across the site (spec §1: support e-mail, US office; footer social links).
 * Edit here; they are not secrets and reach the browser.
 */
export const SITE = {
  supportEmail: "support@venturestudio.example",
  social: {
    linkedin: "https://www.linkedin.com/company/venture-studio-example",
    facebook: "https://www.facebook.com/venturestudio.example",
    youtube: "https://www.youtube.com/@venturestudio-example",
  },
} as const;
