import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkFiles as check, problemLines as messages } from '../../../test/site-check.ts';

// Ten lines that expand to a billion nodes: `yaml` refuses them by throwing, which took a whole
// check (and the run validating it) down with the configuration of a hostile repository.
const aliasBomb = [
  'a: &a [x, x, x, x, x, x, x, x, x]',
  ...'bcdefghij'.split('').map((name, index) => {
    const previous = 'abcdefghij'[index];
    return `${name}: &${name} [${Array.from({ length: 9 }, () => `*${previous}`).join(', ')}]`;
  }),
].join('\n');

describe('a YAML configuration that is an alias bomb', () => {
  for (const [framework, files, configuration] of [
    ['quarto', { '_quarto.yml': aliasBomb, 'index.qmd': '# Home\n' }, '_quarto.yml'],
    [
      'hugo',
      { 'hugo.yaml': `baseURL: https://example.com/\n${aliasBomb}\n`, 'content/_index.md': '# Home\n' },
      'hugo.yaml',
    ],
    ['jekyll', { '_config.yml': `title: Site\n${aliasBomb}\n`, 'index.md': '# Home\n' }, '_config.yml'],
  ] as const) {
    it(`is a configuration problem of ${framework}, not a crash`, async () => {
      const { model, problems } = await check(files);
      assert.equal(model.framework, framework);
      assert.deepEqual(messages(problems), [
        `${configuration}:1: ${configuration} expands more YAML aliases than a configuration needs; it is read as empty`,
      ]);
    });
  }
});
