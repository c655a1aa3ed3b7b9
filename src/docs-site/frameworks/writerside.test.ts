import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readWritersideAnchors } from '../heading-anchors.ts';
import { analyzeSite, checkSite, memoryFiles, PageFactsCache, pagesMissingFromNavigation } from '../index.ts';

async function analyze(files: ReturnType<typeof memoryFiles>) {
  const { model, source } = await analyzeSite(files, new PageFactsCache());
  return { model, problems: await checkSite(model, source) };
}

const problemLines = (problems: ReadonlyArray<{ file: string; line: number; message: string }>) =>
  problems.map((problem) => `${problem.file}:${problem.line} ${problem.message}`);

// Shapes mirrored: JetBrains/writerside-project-templates (a `Writerside/` module, `hi.tree`, a
// library topic with snippets), JetBrains/intellij-sdk-docs (topics in subfolders linked by file
// name, `%var%` in links, `code_samples` snippets, `LOWER_CASE_DASHES_DOT_REMOVE`), JetBrains/Qodana
// (a second instance whose tree names topics that do not exist).
describe('Writerside projects', () => {
  it('builds the topics the trees list, flat, and resolves links by file name', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'Writerside/writerside.cfg':
          '<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE ihp SYSTEM "https://resources.jetbrains.com/writerside/1.0/ihp.dtd">\n<ihp version="2.0">\n  <topics dir="topics"/>\n  <images dir="images" web-path="images"/>\n  <snippets src="code"/>\n  <vars src="v.list"/>\n  <instance src="hi.tree"/>\n  <instance src="tc.tree"/>\n  <settings><id-generator-method>LOWER_CASE_DASHES_DOT_REMOVE</id-generator-method></settings>\n</ihp>\n',
        'Writerside/v.list': '<vars>\n  <var name="gh" value="https://github.com/x/y/blob/main"/>\n</vars>\n',
        'Writerside/hi.tree':
          '<instance-profile id="hi" name="Help" start-page="Default_topic.md">\n  <toc-element topic="Default_topic.md"/>\n  <toc-element toc-title="Basics">\n    <toc-element topic="action_system.md" accepts-web-file-names="actions.html"/>\n  </toc-element>\n</instance-profile>\n',
        'Writerside/tc.tree':
          '<instance-profile id="tc" name="TeamCity">\n  <toc-element topic="gone.md"/>\n  <!-- <toc-element topic="commented.md"/> -->\n</instance-profile>\n',
        'Writerside/topics/Default_topic.md':
          '# Welcome\n\n[Actions](action_system.md#registering-actions-in-pluginxml)\n[Bad anchor](action_system.md#nowhere)\n[Not built](draft.md)\n[Missing](missing.md)\n[Source](%gh%/README.md)\n[Old URL](actions.html)\n![Shot](shot.png)\n![Gone](gone.png)\n<a href="draft.md" nullable="true">maybe</a>\n<!-- [Commented](nothing.md) -->\n\n```java\n```\n{src="Sample.java"}\n\n<code-block lang="c" src="missing.c"/>\n<include from="lib.md" element-id="snippet"/>\n<include from="nolib.md" element-id="snippet"/>\n<include from="lib.md" element-id="nope"/>\n',
        'Writerside/topics/basics/action_system.md':
          '# Action System\n\n## Registering Actions in plugin.xml\n\n[Home](Default_topic.md)\n',
        'Writerside/topics/draft.md': '# Draft\n',
        'Writerside/topics/lib.md':
          '---\nis-library: true\n---\n# Library\n\n<snippet id="snippet">Text</snippet>\n',
        'Writerside/images/ui/shot.png': '',
        'Writerside/code/Sample.java': 'class Sample {}\n',
      }),
    );
    assert.equal(model.framework, 'writerside');
    assert.equal(model.siteRoot, 'Writerside');
    assert.deepEqual(model.pages.get('Writerside/topics/basics/action_system.md'), ['/action-system.html']);
    assert.equal(model.pages.has('Writerside/topics/draft.md'), false);
    assert.deepEqual(problemLines(problems), [
      'Writerside/tc.tree:2 Navigation entry "gone.md" names no page',
      'Writerside/topics/Default_topic.md:4 Broken anchor "action_system.md#nowhere": Writerside/topics/basics/action_system.md has no heading or element with the id "nowhere"',
      'Writerside/topics/Default_topic.md:5 Broken link "draft.md": draft.md is in no instance\'s tree: Writerside fails the build on a link to a topic the instance does not have',
      'Writerside/topics/Default_topic.md:6 Broken link "missing.md": no topic missing.md in Writerside/topics',
      'Writerside/topics/Default_topic.md:10 Broken image "gone.png": no image gone.png in Writerside/images/ or beside the topic',
      'Writerside/topics/Default_topic.md:18 Broken link "missing.c": no file Writerside/code/missing.c for the code block',
      'Writerside/topics/Default_topic.md:20 Broken link "nolib.md#snippet": no topic nolib.md to include from in Writerside/topics',
      'Writerside/topics/Default_topic.md:21 Broken link "lib.md#nope": lib.md has no element with the id "nope" to include',
    ]);
    // A new topic is built only once a tree lists it.
    assert.deepEqual(problemLines(pagesMissingFromNavigation(model, ['Writerside/topics/new.md'])), []);
    const withNew = await analyze(
      memoryFiles({
        'writerside.cfg': '<ihp version="2.0"><topics dir="topics"/><instance src="hi.tree"/></ihp>\n',
        'hi.tree': '<instance-profile id="hi"><toc-element topic="a.md"/></instance-profile>\n',
        'topics/a.md': '# A\n',
        'topics/new.md': '# New\n',
      }),
    );
    assert.deepEqual(problemLines(pagesMissingFromNavigation(withNew.model, ['topics/new.md'])), [
      'topics/new.md:1 New page is missing from navigation; add it to hi.tree',
    ]);
  });

  it('reads XML topics as XML, filtered and nullable links, library topics and the start page', async () => {
    const { model, problems } = await analyze(
      memoryFiles({
        'writerside.cfg': '<ihp version="2.0"><topics dir="topics"/><instance src="hi.tree"/></ihp>\n',
        'hi.tree':
          '<instance-profile id="hi" name="Help" start-page="ghost.md">\n  <toc-element topic="a.topic"/>\n  <toc-element topic="b.md"/>\n  <toc-element topic="lib.md"/>\n</instance-profile>\n',
        'topics/a.topic':
          '<?xml version="1.0"?>\n<topic id="a" title="A">\n  <chapter title="One" id="one">\n\n    <p><a href="b.md" anchor="two-words-here"/> <a href="b.md" anchor="nope"/></p>\n    <p><a href="missing.topic"/> <a href="unlisted.md" nullable="true"/></p>\n    <p instance="other"><a href="missing2.topic"/></p>\n    <!-- <a href="in-comment.topic"/> -->\n    <img src="gone.png"/>\n    <include from="nolib.md" element-id="x"/>\n  </chapter>\n</topic>\n',
        'topics/b.md':
          '# B\n\n## Two [words](a.topic) <b>here</b>\n\n[Filtered](unlisted.md){instance="other"}\n[Nullable](unlisted.md){nullable="true"}\n[Library](lib.md)\n',
        'topics/unlisted.md': '# Unlisted\n',
        'topics/lib.md': '---\nis-library: true\n---\n# Library\n',
      }),
    );
    assert.equal(model.pages.has('topics/lib.md'), false);
    assert.deepEqual(problemLines(problems), [
      'hi.tree:1 Navigation entry "ghost.md" names no page',
      'topics/a.topic:5 Broken anchor "b.md#nope": topics/b.md has no heading or element with the id "nope"',
      'topics/a.topic:6 Broken link "missing.topic": no topic missing.topic in topics',
      'topics/a.topic:9 Broken image "gone.png": no image gone.png in images/ or beside the topic',
      'topics/a.topic:10 Broken link "nolib.md#x": no topic nolib.md to include from in topics',
    ]);
  });

  it('reports a tree or configuration that is not valid XML', async () => {
    const { problems } = await analyze(
      memoryFiles({
        'writerside.cfg': '<ihp version="2.0"><topics dir="topics"/><instance src="hi.tree"/></ihp>\n',
        'hi.tree': '<instance-profile id="hi">\n  <toc-element topic="a.md">\n</instance-profile>\n',
        'topics/a.md': '# A\n',
      }),
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? '', /^hi\.tree is not valid XML/);
  });

  it('makes heading ids as each id-generator-method does', () => {
    const text =
      '# Kotlin 1.9.0−1.9.25\n\n## skiko.js is no longer needed {id="custom"}\n\n<anchor name="named"/>\n\n## Default profiles\n';
    assert.deepEqual([...readWritersideAnchors(text, 'DEFAULT').anchors].sort(), [
      'custom',
      'default-profiles',
      'kotlin-1-9-0-1-9-25',
      'named',
      'skiko-js-is-no-longer-needed',
    ]);
    assert.ok(readWritersideAnchors(text, 'LOWER_CASE_DASHES_DOT_REMOVE').anchors.has('kotlin-1901925'));
    assert.ok(readWritersideAnchors(text, 'URL_ENCODE_PLUS').anchors.has('Default+profiles'));
    assert.equal(
      readWritersideAnchors('# A\n\n<include from="lib.md" element-id="x"/>\n', 'DEFAULT').complete,
      false,
    );
  });
});
