import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatTime, html } from './html.ts';

test('interpolated text is escaped; nested templates are not escaped twice', () => {
  const hostile = `<script>alert("x")</script> & 'quotes' \`tick\``;
  const inner = html`<b>${hostile}</b>`;
  const outer = html`<div title="${hostile}">${inner}</div>`.value;
  assert.equal(outer.includes('<script>'), false);
  assert.equal(outer.includes('"x"'), false);
  assert.match(
    outer,
    /^<div title="&#60;script&#62;alert\(&#34;x&#34;\)&#60;\/script&#62; &#38; &#39;quotes&#39; &#96;tick&#96;"><b>/,
  );
  assert.equal((outer.match(/&#38;/g) ?? []).length, 2, 'escaped once per occurrence');
});

test('arrays are joined; null, undefined and false render nothing', () => {
  assert.equal(
    html`<ul>${['a', '<b>'].map((item) => html`<li>${item}</li>`)}</ul>`.value,
    '<ul><li>a</li><li>&#60;b&#62;</li></ul>',
  );
  assert.equal(html`${null}${undefined}${false}${0}`.value, '0');
});

test('times are UTC in a time element', () => {
  assert.equal(
    formatTime(new Date('2026-03-04T05:06:07Z')).value,
    '<time datetime="2026-03-04T05:06:07.000Z">2026-03-04 05:06 UTC</time>',
  );
  assert.match(formatTime(null).value, /never/);
});
