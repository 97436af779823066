/**
 * A run of base64 (or hex) characters broken into lines, as MIME (76 columns, CRLF) and PEM (64,
 * LF) write base64: its line breaks may be written as such or JSON-escaped at any depth (`\r\n`,
 * `\\n`). Where the lines break depends on the data before the secret, so a secret's form may be
 * cut at any character: the run is read joined up.
 */
const WRAPPED_RUN = /[A-Za-z0-9+/=_-]+(?:(?:\r?\n|(?:\\+r)?\\+n)[A-Za-z0-9+/=_-]+)+/g;

/**
 * A line this long or longer in a run is what wrapped base64 has (76 MIME, 64 PEM columns); text
 * broken into short lines (`shipped\nto customer`) is not read joined, which keeps a multi-line
 * text as cheap to scrub as a one-line one.
 */
export const SHORTEST_WRAPPED_LINE = 32;
const LINE_BREAK = /\r?\n|(?:\\+r)?\\+n/g;

const BASE64_LINE = new RegExp(`[A-Za-z0-9+/=_-]{${SHORTEST_WRAPPED_LINE}}`, 'y');
const BASE64_CHARACTER = /[A-Za-z0-9+/=_-]/;

/**
 * Whether a text may hold wrapped base64 at all: a long base64 line next to a line break. Most
 * texts have none and pay a look at each line feed (`\n`, or JSON's `\\n`), not a pattern run
 * over every character.
 */
function mayWrap(text: string): boolean {
  for (const feed of ['\n', '\\n']) {
    for (let at = text.indexOf(feed); at >= 0; at = text.indexOf(feed, at + 1)) {
      BASE64_LINE.lastIndex = at + feed.length;
      if (BASE64_LINE.test(text) || endsLongLine(text, at)) return true;
    }
  }
  return false;
}

/** Whether the line ending where the break that holds the feed at `at` starts is long base64. */
function endsLongLine(text: string, at: number): boolean {
  let end = at;
  while (end > 0 && text[end - 1] === '\\') end -= 1;
  if (text[end - 1] === 'r' || text[end - 1] === '\r') {
    const carriageReturn = text[end - 1] === '\r';
    end -= 1;
    if (!carriageReturn) while (end > 0 && text[end - 1] === '\\') end -= 1;
  }
  if (end < SHORTEST_WRAPPED_LINE) return false;
  for (let index = end - SHORTEST_WRAPPED_LINE; index < end; index += 1) {
    if (!BASE64_CHARACTER.test(text[index] as string)) return false;
  }
  return true;
}

/**
 * The text with every match of `pattern` (global) found in its line-wrapped runs, read joined up,
 * replaced by `replacement`; each match's span in the text, line breaks inside it included, goes.
 */
export function replaceAcrossLineBreaks(text: string, pattern: RegExp, replacement: string): string {
  if (!mayWrap(text)) return text;
  return text.replace(WRAPPED_RUN, (run) => {
    if (!hasWrappedLine(run)) return run;
    const { joined, positions } = joinLines(run);
    const spans = [...joined.matchAll(pattern)].map((match) => ({
      from: positions[match.index] as number,
      to: (positions[match.index + match[0].length - 1] as number) + 1,
    }));
    if (spans.length === 0) return run;
    let result = '';
    let cursor = 0;
    for (const { from, to } of spans) {
      result += `${run.slice(cursor, from)}${replacement}`;
      cursor = to;
    }
    return result + run.slice(cursor);
  });
}

/** Whether `pattern` (not global) matches a line-wrapped run of the text, read joined up. */
export function holdsAcrossLineBreaks(text: string, pattern: RegExp): boolean {
  if (!mayWrap(text)) return false;
  for (const [run] of text.matchAll(WRAPPED_RUN)) {
    if (hasWrappedLine(run) && pattern.test(joinLines(run).joined)) return true;
  }
  return false;
}

function hasWrappedLine(run: string): boolean {
  return run.split(LINE_BREAK).some((line) => line.length >= SHORTEST_WRAPPED_LINE);
}

/** A run without its line breaks, and where each of its characters sits in the run. */
function joinLines(run: string): { joined: string; positions: number[] } {
  const positions: number[] = [];
  let joined = '';
  let cursor = 0;
  for (const lineBreak of run.matchAll(LINE_BREAK)) {
    for (let index = cursor; index < lineBreak.index; index += 1) positions.push(index);
    joined += run.slice(cursor, lineBreak.index);
    cursor = lineBreak.index + lineBreak[0].length;
  }
  for (let index = cursor; index < run.length; index += 1) positions.push(index);
  joined += run.slice(cursor);
  return { joined, positions };
}
