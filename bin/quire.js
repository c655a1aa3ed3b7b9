#!/usr/bin/env node
// The `quire` command. Plain JavaScript so that an old Node can still explain what is wrong;
// the code it loads is TypeScript, run by Node's built-in type stripping (Node >= 22.18).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const script = fileURLToPath(new URL('../scripts/node.sh', import.meta.url));
  const self = fileURLToPath(import.meta.url);
  const result = spawnSync('sh', [script, self, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
const { runCli } = await import('../src/cli/main.ts');
await runCli(process.argv.slice(2));
