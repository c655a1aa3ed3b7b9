// Runs every test (`npm test`), or the files given as arguments.
import { spawnSync } from 'node:child_process';

const files = process.argv.slice(2);
const patterns = files.length > 0 ? files : ['src/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'];
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...patterns], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
