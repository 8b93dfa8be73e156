/**
 * Field sizes shared by the Appwrite collections (`model/appwrite.json`) and validation. A module of its own,
 * without zod, so the browser can read them (the visitor forms' `maxlength`) without loading the schemas.
 */
export const LIMITS = {
  name: 256,
  title: 256,
  shortDescription: 1024,
  excerpt: 1024,
  url: 2048,
  html: 200_000,
  message: 5000,
  email: 320,
} as const;
