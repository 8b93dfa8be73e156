/**
 * Writes `model/appwrite.json` from the content model (`model/appwrite.ts`), formatted by Prettier as the
 * rest of the tree: `npm run schema`. With `--check`, writes nothing and exits 1 when the file differs.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import prettier from "prettier";
import { appwriteSchema } from "../../model/appwrite.ts";

/** The path of the committed schema file. */
export const APPWRITE_JSON = fileURLToPath(new URL("../../model/appwrite.json", import.meta.url));

/** The text `model/appwrite.json` must hold: the generated schema, Prettier-formatted with the repo's options. */
export async function appwriteJsonText(): Promise<string> {
  const options = (await prettier.resolveConfig(APPWRITE_JSON)) ?? {};
  return prettier.format(JSON.stringify(appwriteSchema(), null, 2), { ...options, filepath: APPWRITE_JSON });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await appwriteJsonText();
  if (process.argv.includes("--check")) {
    const current = await readFile(APPWRITE_JSON, "utf8");
    if (current !== text) {
      console.error("model/appwrite.json differs from the content model: run `npm run schema`.");
      process.exit(1);
    }
  } else {
    await writeFile(APPWRITE_JSON, text);
    console.log("wrote model/appwrite.json");
  }
}
