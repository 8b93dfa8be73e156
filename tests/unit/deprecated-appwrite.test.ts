/**
 * Issue #19 item 5: the product's own Appwrite calls (`web/`, `lib/`, `server/`, `cli/`) use no method that
 * node-appwrite marks `@deprecated`: not the `Databases` service (deprecated since Appwrite 1.8 in favour of
 * `TablesDB`), not a positional-argument overload ("Use the object parameter style method"). The TypeScript
 * checker resolves every call and property access against node-appwrite's declarations, so an aliased or
 * destructured service is caught as well as `services.databases.listDocuments`.
 */
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CHECKED = new Set(["web", "lib", "server", "cli"]);

/**
 * Deprecated calls the product keeps on purpose, as `relative/path:method`, each with its reason.
 * `createStringColumn`: no Appwrite 1.9 column keeps a string size above varchar's 16,381 (the body columns
 * are 200,000), and `schemas/appwrite.json` is still in the collections format whose sizes the official
 * CLI's `pull collections` must write back unchanged; it goes when the file names the 1.9 types.
 */
const ALLOWED = new Set(["lib/appwrite/setup.ts:createStringColumn"]);

/** `path:line name — deprecation note` for every deprecated node-appwrite symbol used in `program`'s product files. */
function deprecatedUses(program: ts.Program): string[] {
  const checker = program.getTypeChecker();
  const found: string[] = [];
  const fromAppwrite = (declaration: ts.Node | undefined) =>
    declaration !== undefined && /[\\/]node_modules[\\/]node-appwrite[\\/]/.test(declaration.getSourceFile().fileName);
  const note = (declaration: ts.Node | undefined): string | null => {
    if (!declaration || !fromAppwrite(declaration)) return null;
    const tag = ts.getJSDocTags(declaration).find((t) => t.tagName.text === "deprecated");
    if (!tag) return null;
    return (ts.getTextOfJSDocComment(tag.comment) ?? "deprecated").trim();
  };
  for (const file of program.getSourceFiles()) {
    const relative = path.relative(ROOT, file.fileName).split(path.sep).join("/");
    if (!CHECKED.has(relative.split("/")[0]!)) continue;
    const report = (node: ts.Node, name: string, why: string) => {
      if (ALLOWED.has(`${relative}:${name}`)) return;
      const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
      found.push(`${relative}:${line + 1} ${name}: ${why}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const signature = checker.getResolvedSignature(node);
        const why = note(signature?.getDeclaration());
        if (why) report(node, node.expression.getText(file).split(".").pop() ?? "", why);
      } else if (ts.isPropertyAccessExpression(node) || ts.isIdentifier(node)) {
        const symbol = checker.getSymbolAtLocation(node);
        const target = symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        // Methods are judged by the overload a call resolves to (above); other symbols (classes, enums,
        // properties) by their own declaration.
        const declarations = target?.declarations ?? [];
        if (declarations.length > 0 && !declarations.some((d) => ts.isMethodDeclaration(d) || ts.isMethodSignature(d))) {
          const why = declarations.map(note).find((n) => n !== null);
          if (why) report(node, node.getText(file), why);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return found;
}

/** The project's program, from its `tsconfig.json`. */
function projectProgram(): ts.Program {
  const configPath = path.join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile.bind(ts.sys));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}

describe("no deprecated Appwrite call in the product (issue #19 item 5)", () => {
  it("web/, lib/, server/ and cli/ call TablesDB and object-style methods only", () => {
    const program = projectProgram();
    expect(deprecatedUses(program)).toEqual([]);
  }, 180_000);

  it("the check finds the Databases service and a positional overload", () => {
    // The same check over a product-like file that uses the deprecated forms: it must report both.
    const probe = path.join(ROOT, "lib", "__deprecated_probe__.ts");
    const source = [
      'import { Client, Databases, TablesDB } from "node-appwrite";',
      "const client = new Client();",
      'void new Databases(client).listDocuments({ databaseId: "d", collectionId: "c" });',
      'void new TablesDB(client).getRow("d", "t", "r");',
      'void new TablesDB(client).listRows({ databaseId: "d", tableId: "t" });',
    ].join("\n");
    const base = projectProgram();
    const host = ts.createCompilerHost(base.getCompilerOptions());
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (fileName, languageVersion, ...rest) =>
      path.resolve(fileName) === probe
        ? ts.createSourceFile(fileName, source, languageVersion, true)
        : read(fileName, languageVersion, ...rest);
    const program = ts.createProgram({ rootNames: [probe], options: base.getCompilerOptions(), host });
    const found = deprecatedUses(program);
    expect(found).toEqual([
      expect.stringMatching(/^lib\/__deprecated_probe__\.ts:3 listDocuments: This API has been deprecated since 1\.8\.0/),
      expect.stringMatching(/^lib\/__deprecated_probe__\.ts:4 getRow: Use the object parameter style/),
    ]);
  }, 180_000);
});
