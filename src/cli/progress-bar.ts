/**
 * A one-line progress bar on a terminal's stderr, drawn by cli-progress at most five times a
 * second; silent when stderr is not a terminal (a pipe, a log file, CI).
 *
 *   const progress = createProgressBar('[{bar}] {percentage}% {value}/{total} views', total, {});
 *   progress.update(done);
 *   progress.stop();
 */
import cliProgress from 'cli-progress';

export interface ProgressBar<Payload extends object> {
  update(value: number, payload?: Payload): void;
  stop(): void;
}

/**
 * `format` takes cli-progress's tokens (`{bar}`, `{percentage}`, `{value}`, `{total}`,
 * `{eta_formatted}`) and the payload's names.
 */
export function createProgressBar<Payload extends object>(
  format: string,
  total: number,
  payload: Payload,
): ProgressBar<Payload> {
  const bar = new cliProgress.SingleBar({
    format,
    stream: process.stderr,
    fps: 5,
    barsize: 30,
    barCompleteChar: '#',
    barIncompleteChar: '.',
  });
  bar.start(total, 0, payload);
  return {
    update: (value, next) => bar.update(value, next),
    stop: () => bar.stop(),
  };
}
