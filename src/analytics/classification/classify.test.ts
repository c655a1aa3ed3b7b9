import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hostileUserAgents } from '../../../test/user-agent-corpus.ts';
import type { AiAgentTable } from './ai-agent-table-builder.ts';
import { browserLikeAgent, createClassifier } from './classify.ts';

const chrome =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const classifier = createClassifier();
const page = (userAgent: string | undefined) => classifier.classify({ userAgent, markdown: false });
const markdown = (userAgent: string | undefined) => classifier.classify({ userAgent, markdown: true });

describe('classify', () => {
  it('counts browsers as human', () => {
    assert.deepEqual(page(chrome), { category: 'human', agent: null });
    assert.deepEqual(
      page('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'),
      {
        category: 'human',
        agent: null,
      },
    );
  });

  it('recognises the AI categories of DESIGN.md §4', () => {
    const cases: Array<[string, string, string]> = [
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot',
        'ai_assistant',
        'ChatGPT-User',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)',
        'ai_assistant',
        'Claude-User',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)',
        'ai_assistant',
        'Perplexity-User',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot',
        'ai_search',
        'OAI-SearchBot',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)',
        'ai_search',
        'PerplexityBot',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
        'ai_training',
        'GPTBot',
      ],
      [
        'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
        'ai_training',
        'ClaudeBot',
      ],
      ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'ai_training', 'CCBot'],
      [
        'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
        'ai_training',
        'Bytespider',
      ],
      ['codex_cli_rs/0.50.0 (Mac OS 15.1.0; arm64) vscode/1.2', 'ai_assistant', 'codex_cli_rs'],
    ];
    for (const [userAgent, category, agent] of cases) {
      assert.deepEqual(page(userAgent), { category, agent }, userAgent);
    }
  });

  it('prefers the longest token and matches case-insensitively', () => {
    assert.equal(page('GoogleOther-Image/1.0')?.agent, 'GoogleOther-Image');
    assert.equal(page('mozilla/5.0 (compatible; gptbot/1.1)').agent, 'GPTBot');
  });

  it('matches ordinary-word tokens only as a product token', () => {
    assert.equal(page('Code/1.4 (agent)').category, 'ai_assistant');
    assert.equal(page(`${chrome} Code Operator Cursor`).category, 'human');
    assert.equal(
      page('Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)').category,
      'bot',
    );
  });

  it('sends other bots to `bot` with their product name', () => {
    assert.deepEqual(page('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'), {
      category: 'bot',
      agent: 'Googlebot',
    });
    assert.deepEqual(page('curl/8.4.0'), { category: 'bot', agent: 'curl' });
    assert.deepEqual(page(''), { category: 'bot', agent: 'no user agent' });
    assert.deepEqual(page('-'), { category: 'bot', agent: 'no user agent' });
  });

  it('counts Markdown fetches as ai_assistant whatever the user agent, crawlers and known agents aside', () => {
    assert.deepEqual(markdown('curl/8.4.0'), { category: 'ai_assistant', agent: 'curl' });
    assert.deepEqual(markdown('python-httpx/0.27.0'), { category: 'ai_assistant', agent: 'python-httpx' });
    assert.deepEqual(markdown('MyDocsFetcher/0.1'), { category: 'ai_assistant', agent: 'MyDocsFetcher' });
    assert.deepEqual(markdown(''), { category: 'ai_assistant', agent: 'unknown' });
    // An agent behind a browser's user agent (opencode's fetcher, headless fetchers) asking for Markdown.
    assert.deepEqual(markdown(chrome), { category: 'ai_assistant', agent: browserLikeAgent });
    assert.deepEqual(markdown('Lynx/2.8.9rel.1 libwww-FM/2.14'), {
      category: 'ai_assistant',
      agent: browserLikeAgent,
    });
    // Known AI agents keep their own category; a crawler indexing a Markdown page is still a crawler.
    assert.equal(
      markdown('Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)').category,
      'ai_training',
    );
    assert.equal(
      markdown('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)').category,
      'bot',
    );
  });

  it('gives a signed request (Web Bot Auth) to its signer, never to a person', () => {
    const signed = (signatureAgent: string, userAgent = chrome, isMarkdown = false) =>
      classifier.classify({ userAgent, markdown: isMarkdown, signatureAgent });
    assert.deepEqual(signed('"https://chatgpt.com"'), { category: 'ai_assistant', agent: 'ChatGPT-Agent' });
    assert.deepEqual(signed('sig1="https://chatgpt.com"'), {
      category: 'ai_assistant',
      agent: 'ChatGPT-Agent',
    });
    assert.deepEqual(signed('"https://agent.example.net"'), { category: 'bot', agent: 'agent.example.net' });
    assert.deepEqual(signed('"https://agent.example.net"', chrome, true), {
      category: 'ai_assistant',
      agent: 'agent.example.net',
    });
    // The user agent's own name wins when it names a known agent.
    assert.equal(
      signed('"https://chatgpt.com"', 'Mozilla/5.0 (compatible; ChatGPT-User/1.0)').agent,
      'ChatGPT-User',
    );
    // Unusable header values change nothing.
    assert.deepEqual(signed('"http://insecure.example"'), { category: 'human', agent: null });
    assert.deepEqual(signed('nonsense'), { category: 'human', agent: null });
  });

  it('counts text browsers, in-app browsers and apps as people, overriding isbot where it is wrong', () => {
    for (const userAgent of [
      'Lynx/2.8.9rel.1 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.1.1d',
      'w3m/0.5.3+git20230121',
      'Links (2.29; Linux 6.1.0 x86_64; GNU C 12.2; text)',
      'ELinks/0.13.2 (textmode; Linux; 80x24-2)',
      'Dillo/3.0.5',
      '[FBAN/FBIOS;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
      'Instagram 309.1.0.41.113 Android (33/13; 420dpi; 1080x2340; samsung; SM-A536B; a53x; s5e8825; en_GB; 541635890)',
      'Line/13.19.0',
      'AppleNews/1.0 CFNetwork/1410.0.3 Darwin/22.6.0',
      'Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; chromeframe/11.0.696.57) like Gecko',
      'Mozilla/5.0+(Windows+NT+10.0;+Win64;+x64)+AppleWebKit/537.36+(KHTML,+like+Gecko)+Chrome/120.0.0.0+Safari/537.36',
      'MOZILLA/5.0 (Windows NT 10.0) Chrome/120',
      'Opera/9.80 (Windows NT 6.1; U; en) Presto/2.10.289 Version/12.02',
    ]) {
      assert.deepEqual(page(userAgent), { category: 'human', agent: null }, userAgent);
    }
    // ...unless the same user agent calls itself a bot, or a reviewed tool names itself.
    assert.equal(page('Line/13.19.0 (compatible; examplebot/1.0)').category, 'bot');
    assert.deepEqual(page(`${chrome} GTmetrix`), { category: 'bot', agent: 'GTmetrix' });
    assert.equal(page(chrome.replace('Chrome/130.0', 'HeadlessChrome/130.0')).category, 'bot');
  });

  it('names a bot that isbot knows only by its contact URL after its product, never "http"', () => {
    const agent = (userAgent: string) => page(userAgent);
    assert.deepEqual(agent('Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)'), {
      category: 'bot',
      agent: 'Embedly',
    });
    // The product that leads a user agent which does not pretend to be a browser.
    assert.equal(agent('Liferea/1.8.3 (Linux; en_GB.UTF-8; http://liferea.sf.net/)').agent, 'Liferea');
    // What follows `compatible;` when no product token has a version; URL paths are no products.
    assert.equal(
      agent('Mozilla/5.0 (compatible; Example Reader; http://reader.example/about/x)').agent,
      'Example Reader',
    );
    // Else the contact URL's host.
    assert.equal(
      agent(
        'Mozilla/5.0 (X11; U; Linux x86_64; rv:1.9.0.19; aggregator; http://spinn3r.com/robot) Gecko/2010040121 Firefox/3.0.19',
      ).agent,
      'spinn3r.com',
    );
    // A product token that starts with a digit.
    assert.equal(
      agent('Mozilla/5.0 (Windows NT 5.1; zh-CN; ) Firefox/1.5.0.11; 360Spider').agent,
      '360Spider',
    );
    // Slurp, which isbot does not know.
    assert.deepEqual(agent('Mozilla/5.0 (compatible; Yahoo! Slurp)'), {
      category: 'bot',
      agent: 'Yahoo! Slurp',
    });
    assert.equal(agent(`${chrome} slurp`).category, 'bot');
  });

  it("counts feature phones and early Midori as people, and crawlers that send a phone's user agent as bots", () => {
    for (const userAgent of [
      'Nokia6300/2.0 (05.00) Profile/MIDP-2.0 Configuration/CLDC-1.1',
      'SAMSUNG-GT-E2232/1.0 Openwave/6.2.3 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Browser/6.2.3.3.c.1.101 (GUI) MMP/2.0',
      'MAXX_MAUI WAP Browser',
      'Midori/0.2 (X11; Linux; U; fr-fr) WebKit/531.2+',
    ]) {
      assert.deepEqual(page(userAgent), { category: 'human', agent: null }, userAgent);
    }
    assert.equal(
      page(
        'KDDI-CA31 UP.Browser/6.2.0.7.3.129 (GUI) MMP/2.0 (compatible; ichiro/mobile goo; +http://help.goo.ne.jp/)',
      ).category,
      'bot',
    );
    assert.equal(
      page('BlackBerry9000/4.6.0.167 Profile/MIDP-2.0 Configuration/CLDC-1.1 VendorID/102 ips-agent')
        .category,
      'bot',
    );
  });

  it('matches tokens as tokens: not inside URLs, e-mail addresses or after a bare word', () => {
    assert.equal(
      page('Sogou web spider/4.0(+http://www.sogou.com/docs/help/webmasters.htm#07)').category,
      'bot',
    );
    assert.equal(page('Screaming Frog SEO Spider/19.4').category, 'bot');
    assert.equal(
      page('Mozilla/5.0 (compatible; MyCrawler/1.0; +http://example.com/spider/info.html)').category,
      'bot',
    );
    assert.equal(
      page('Mozilla/5.0 (compatible; Fetcher/1.0; +https://example.com/gptbot.html)').agent,
      'Fetcher',
    );
    assert.equal(page('Mozilla/5.0 (compatible; Fetcher/1.0; gptbot@example.com)').category, 'bot');
    assert.deepEqual(page('Spider/1.0'), { category: 'ai_training', agent: 'Spider' });
    assert.equal(
      page('Mozilla/5.0 (KHTML, like Gecko) Code/1.115.0 Chrome/142.0 Electron/39.8.5').agent,
      'Code',
    );
  });

  it('folds versions into one agent, knows the added agents and the reviewed categories', () => {
    assert.deepEqual(page('MistralAI-User/1.0'), page('MistralAI-User'));
    assert.deepEqual(page('Mozilla/5.0 (compatible; MistralAI-User/1.0; +https://docs.mistral.ai/robots)'), {
      category: 'ai_assistant',
      agent: 'MistralAI-User',
    });
    assert.deepEqual(page('Mozilla/5.0 (compatible; iaskspider/2.0; +https://iask.ai)'), {
      category: 'ai_search',
      agent: 'iaskspider',
    });
    assert.deepEqual(page('Mozilla/5.0 (compatible; Exabot/3.0; +http://www.exabot.com/go/robot)'), {
      category: 'bot',
      agent: 'Exabot',
    });
    assert.equal(page('Mozilla/5.0 (compatible; ExaSearchBot/1.0)').category, 'ai_search');
    assert.deepEqual(page('Mozilla/5.0 (compatible; xAI-Bot/1.0; +https://x.ai)'), {
      category: 'ai_search',
      agent: 'xAI-Bot',
    });
    assert.deepEqual(page('Mozilla/5.0 (compatible; PerplexityUser/1.0)'), {
      category: 'ai_assistant',
      agent: 'Perplexity-User',
    });
    assert.deepEqual(page(`${chrome} Agent-NovaAct/0.9`), { category: 'ai_assistant', agent: 'NovaAct' });
    assert.deepEqual(page('Windsurf/1.12.0 (darwin; arm64)'), {
      category: 'ai_assistant',
      agent: 'Windsurf',
    });
  });

  it('treats a view with no user-agent information at all as human', () => {
    assert.deepEqual(page(undefined), { category: 'human', agent: null });
    assert.deepEqual(markdown(undefined), { category: 'ai_assistant', agent: 'unknown' });
  });

  // Their classification rate is measured by bench/classification.ts; the timeout only stops a stalled run.
  it('survives hostile user agents and keeps agent names short and printable', { timeout: 60_000 }, () => {
    const long = `${'A'.repeat(100_000)}bot/1.0 +http://x`;
    const result = page(long);
    assert.equal(result.category, 'bot');
    assert.ok((result.agent ?? '').length <= 64);
    // Shapes that would make a backtracking pattern quadratic.
    for (const hostile of hostileUserAgents) assert.ok((page(hostile).agent ?? '').length <= 64);
    const control = page('evil\u0000\u001bbot/1.0 (+http://x)');
    assert.equal(control.category, 'bot');
    assert.match(control.agent ?? '', /^[\x20-\x7e]+$/);
  });

  it('names its table and rules in the version, and follows a different table', () => {
    const table: AiAgentTable = {
      source: { project: 'p', commit: 'abcdef0123456789', date: '2026-01-01', license: 'MIT' },
      agents: [{ token: 'DocsReader', category: 'ai_search', operator: '', match: 'word' }],
    };
    const custom = createClassifier({ table });
    assert.match(custom.version, /^abcdef012345\.r\d+\.isbot-\d+\.\d+\.\d+$/);
    assert.notEqual(custom.version, classifier.version);
    assert.equal(custom.classify({ userAgent: 'DocsReader/1', markdown: false }).category, 'ai_search');
    assert.equal(
      custom.classify({ userAgent: 'GPTBot/1.2 (+https://openai.com/gptbot)', markdown: false }).category,
      'bot',
    );
  });

  it('gives the same answer from its cache', () => {
    const small = createClassifier({ cacheSize: 2 });
    for (let round = 0; round < 3; round += 1) {
      assert.equal(small.classify({ userAgent: chrome, markdown: false }).category, 'human');
      assert.equal(small.classify({ userAgent: 'curl/8', markdown: true }).category, 'ai_assistant');
      assert.equal(small.classify({ userAgent: 'curl/8', markdown: false }).category, 'bot');
      assert.equal(small.classify({ userAgent: 'GPTBot/1.2', markdown: false }).category, 'ai_training');
    }
  });
});
