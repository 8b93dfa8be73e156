/** Header navigation of spec §2, in order. Paths are relative to the locale root. */
export const NAV = [
  { key: "home", path: "" },
  { key: "about", path: "/about" },
  { key: "services", path: "/services" },
  { key: "ventures", path: "/ventures" },
  { key: "blog", path: "/blog" },
  { key: "community", path: "/community" },
  { key: "partner", path: "/partner" },
  { key: "contact", path: "/contact" },
] as const;
