import { Box, Text, render } from "ink";
import { displayValue, type Preview } from "../../lib/content/preview.ts";

/** A draft in the terminal: metadata, validation (✓ or each problem), and the body as readable text. */
export function PreviewView({ preview, translation = null }: { preview: Preview; translation?: string | null }) {
  const problems = [
    ...preview.issues.map((i) => `${i.field}: ${i.message}`),
    ...preview.rules.map((r) => `content rule: ${r.message}`),
  ];
  return (
    <Box flexDirection="column">
      <Text bold>
        {preview.kind} · {preview.file}
      </Text>
      <Box flexDirection="column" borderStyle="round" paddingX={1}>
        {Object.entries(preview.frontMatter).map(([key, value]) => (
          <Text key={key}>
            <Text dimColor>{key.padEnd(17)}</Text>
            {displayValue(value)}
          </Text>
        ))}
        {translation && (
          <Text>
            <Text dimColor>{"status".padEnd(17)}</Text>
            <Text color={translation.startsWith("up-to-date") ? undefined : "yellow"}>{translation}</Text>
          </Text>
        )}
      </Box>
      {problems.length === 0 ? (
        <Text color="green">
          {preview.frontMatter.generated ? "✓ valid, and follows the content rules of AI drafts" : "✓ valid"}
        </Text>
      ) : (
        problems.map((p) => (
          <Text key={p} color="red">
            ✗ {p}
          </Text>
        ))
      )}
      {preview.warnings.map((w) => (
        <Text key={`${w.field}${w.message}`} color="yellow">
          ! {w.field}: {w.message}
        </Text>
      ))}
      <Box marginTop={1}>
        <Text>{preview.text}</Text>
      </Box>
    </Box>
  );
}

/** Draws the preview once and returns when it is on screen. */
export async function renderPreview(preview: Preview, translation: string | null = null): Promise<void> {
  const instance = render(<PreviewView preview={preview} translation={translation} />);
  instance.unmount();
  await instance.waitUntilExit();
}
