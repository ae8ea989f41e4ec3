#!/usr/bin/env node
// A hand-written file over 300 lines is a module that wants splitting (issue 45): this check fails
// on one, in `npm test`. Generated files are those .prettierignore names as generated (the
// codegen output, the OpenAPI examples, migrations, ABIs, the SDL), so the two lists cannot drift.
// The files that were over the limit when the check came are listed in .ci/long-files, each to be
// split; the list only shrinks: a listed file back within the limit must leave it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const LIMIT = 300;
const HAND_WRITTEN = /\.(ts|tsx|mts|mjs|cjs|js)$/;

const generated = readFileSync('.prettierignore', 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
  .map((pattern) => {
    const glob = pattern
      .replace(/\./g, '\\.')
      .replace(/^\*\*\//, '\u0000')
      .replace(/\*/g, '[^/]*')
      .replace('\u0000', '(.*/)?');
    return new RegExp('^' + glob + (pattern.endsWith('/') ? '' : '$'));
  });

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((file) => HAND_WRITTEN.test(file) && !generated.some((re) => re.test(file)));

const listed = new Set(
  readFileSync('.ci/long-files', 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#')),
);

const measured = files.map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }));
const long = measured.filter(({ file, lines }) => lines > LIMIT && !listed.has(file)).sort((a, b) => b.lines - a.lines);

const split = measured.filter(({ file, lines }) => listed.has(file) && lines <= LIMIT);
const gone = [...listed].filter((file) => !files.includes(file));

for (const { file, lines } of long) console.error(`${file}: ${lines} lines (at most ${LIMIT}: split it by what its parts are about)`);
for (const { file } of split) console.error(`${file} is within ${LIMIT} lines now: take it off .ci/long-files`);
for (const file of gone) console.error(`${file} is listed in .ci/long-files but is not in the tree: take it off`);
if (long.length || split.length || gone.length) process.exit(1);
console.log(`file length: every hand-written file within ${LIMIT} lines, but the ${listed.size} of .ci/long-files`);
