/**
 * `studio --help` in a narrow terminal (issue #34: at 40 columns commander stopped wrapping and the terminal
 * cut words in half). Descriptions are wrapped at word boundaries at any width; when the space beside the
 * option names is too narrow, each description goes on its own lines under its option.
 */
import { Help, type HelpConfiguration } from "commander";

/** Below this many columns beside the terms, descriptions go under them instead. */
const MIN_SIDE_WIDTH = 30;

/** Wraps `text` at spaces to lines of at most `width` columns (a word longer than that stays whole). */
export function wrapWords(text: string, width: number): string {
  return text
    .split("\n")
    .map((line) => {
      const words = line.split(/ +/);
      const lines: string[] = [];
      let current = "";
      for (const word of words) {
        if (current && current.length + 1 + word.length > width) {
          lines.push(current);
          current = word;
        } else current = current ? `${current} ${word}` : word;
      }
      lines.push(current);
      return lines.join("\n");
    })
    .join("\n");
}

/** The help configuration of `studio` and its commands (commander's `configureHelp`). */
export const helpLayout: HelpConfiguration = {
  // Commander leaves text unwrapped below 40 columns; wrap at whatever the terminal has.
  minWidthToWrap: 10,
  formatItem(term, termWidth, description, helper) {
    const width = helper.helpWidth ?? 80;
    if (!description || width - termWidth - 4 >= MIN_SIDE_WIDTH) {
      return Help.prototype.formatItem.call(helper, term, termWidth, description, helper);
    }
    const indent = "      ";
    return `  ${term}\n${wrapWords(description, Math.max(10, width - indent.length)).replace(/^/gm, indent)}`;
  },
};
