import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseModelId } from './config.ts';

describe('loadConfig', () => {
  test('defaults match the documented table', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.dataDirectory, path.resolve('.quire'));
    assert.equal(config.databaseUrl, null);
    assert.equal(config.publicUrl, 'http://127.0.0.1:3000');
    assert.equal(config.model, null);
    assert.equal(config.role, 'all');
    assert.equal(config.embeddedRecoverySeconds, 60);
    assert.ok(Object.isFrozen(config));
  });

  test('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      QUIRE_DATA_DIR: '/var/lib/quire',
      DATABASE_URL: 'postgres://quire@db:5432/quire',
      QUIRE_PUBLIC_URL: 'https://docs.example.com/quire/',
      QUIRE_MODEL: 'anthropic:claude-sonnet-4-5',
      ANTHROPIC_API_KEY: 'a',
      OPENAI_API_KEY: 'o',
      OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:11434/v1',
      OPENAI_COMPATIBLE_API_KEY: 'c',
      QUIRE_ROLE: 'worker',
      QUIRE_EMBEDDED_RECOVERY_SECONDS: '5',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.dataDirectory, '/var/lib/quire');
    assert.equal(config.databaseUrl, 'postgres://quire@db:5432/quire');
    assert.equal(config.publicUrl, 'https://docs.example.com/quire');
    assert.equal(config.model, 'anthropic:claude-sonnet-4-5');
    assert.equal(config.anthropicApiKey, 'a');
    assert.equal(config.openaiApiKey, 'o');
    assert.equal(config.openaiCompatibleBaseUrl, 'http://127.0.0.1:11434/v1');
    assert.equal(config.openaiCompatibleApiKey, 'c');
    assert.equal(config.role, 'worker');
    assert.equal(config.embeddedRecoverySeconds, 5);
  });

  test('command-line overrides win over the environment', () => {
    const config = loadConfig({ PORT: '8080', QUIRE_ROLE: 'worker' }, { port: 9000, role: 'api' });
    assert.equal(config.port, 9000);
    assert.equal(config.role, 'api');
    assert.equal(config.publicUrl, 'http://127.0.0.1:9000');
  });

  const invalid: [string, Record<string, string>][] = [
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['QUIRE_ROLE', { QUIRE_ROLE: 'everything' }],
    ['QUIRE_MODEL', { QUIRE_MODEL: 'gpt-4o' }],
    ['QUIRE_MODEL', { QUIRE_MODEL: 'mistral:large' }],
    ['QUIRE_MODEL', { QUIRE_MODEL: 'openai:' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/quire' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['QUIRE_EMBEDDED_RECOVERY_SECONDS', { QUIRE_EMBEDDED_RECOVERY_SECONDS: '0' }],
    ['QUIRE_PUBLIC_URL', { QUIRE_PUBLIC_URL: 'ftp://example.com' }],
    ['OPENAI_COMPATIBLE_BASE_URL', { OPENAI_COMPATIBLE_BASE_URL: 'localhost:11434' }],
  ];
  for (const [variable, environment] of invalid) {
    test(`rejects ${JSON.stringify(environment)} naming ${variable}`, () => {
      assert.throws(
        () => loadConfig(environment),
        (error: unknown) =>
          error instanceof ConfigError && error.variable === variable && error.message.startsWith(variable),
      );
    });
  }
});

describe('parseModelId', () => {
  test('splits provider and model at the first colon', () => {
    assert.deepEqual(parseModelId('openai-compatible:qwen2.5:7b'), {
      provider: 'openai-compatible',
      modelId: 'qwen2.5:7b',
    });
    assert.deepEqual(parseModelId('openai:gpt-4.1'), { provider: 'openai', modelId: 'gpt-4.1' });
    assert.equal(parseModelId(':gpt'), null);
    assert.equal(parseModelId('nothing'), null);
  });
});
