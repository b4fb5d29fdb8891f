/**
 * `node bench/seed/import-file.ts --records N --out file.jsonl [--seed S]`:
 * writes the seeder's corpus (bench/seed/corpus.ts) as an operator import
 * file (`npm run ops -- import`), the same mix of problems, solutions and
 * discussions, each solution after its problem, to time imports at scale.
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { draftDiscussion, draftProblem, draftSolution } from './corpus.ts';
import { createRandom } from './random.ts';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '1000' },
    out: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});
const records = Number(values.records);
if (!Number.isInteger(records) || records < 1) throw new Error('--records must be a positive whole number');
if (!values.out) throw new Error('--out is required');

const r = createRandom(Number(values.seed));
const out = createWriteStream(values.out);
const write = async (line: unknown) => {
  if (!out.write(`${JSON.stringify(line)}\n`)) await new Promise((resolve) => out.once('drain', resolve));
};
const SPAN_MS = 2 * 365 * 24 * 3600 * 1000;
const start = Date.UTC(2024, 0, 1);
const at = (i: number) => new Date(start + Math.floor((i / records) * SPAN_MS)).toISOString();
// Per 20 records: 9 problems, 8 solutions (to one of the last problems), 3 discussions, as the seeder's shares.
const problems: { key: string; template: number }[] = [];
for (let i = 0; i < records; i++) {
  const slot = i % 20;
  if (slot < 9 || problems.length === 0) {
    const { template, errorLiteral, ...draft } = draftProblem(r);
    const key = `seed-p-${i}`;
    problems.push({ key, template });
    if (problems.length > 64) problems.shift();
    await write({
      operation: 'create_problem',
      key,
      created_at: at(i),
      body: { ...draft, error_literal: errorLiteral },
    });
  } else if (slot < 17) {
    const problem = r.pick(problems);
    const { body, applicability, limitations } = draftSolution(r, problem.template);
    await write({
      operation: 'create_solution',
      key: `seed-s-${i}`,
      created_at: at(i),
      body: {
        problem_id: problem.key,
        body,
        ...(applicability ? { applicability } : {}),
        ...(limitations ? { limitations } : {}),
      },
    });
  } else {
    const { product, ...draft } = draftDiscussion(r);
    await write({
      operation: 'create_discussion',
      key: `seed-d-${i}`,
      created_at: at(i),
      body: { ...draft, ...(product ? { product } : {}) },
    });
  }
}
out.end();
await finished(out);
