import { type Command, InvalidArgumentError, Option } from 'commander';
import { loadConfig, type Role, roles } from '../config.ts';
import { startService } from '../main.ts';

function parsePort(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) throw new InvalidArgumentError('must be a port number');
  return Number(text);
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the service: the HTTP API and the job worker (see --role)')
    .option('--port <port>', 'HTTP port (default: PORT or 3000)', parsePort)
    .addOption(
      new Option('--role <role>', 'what this process runs (default: QUIRE_ROLE or all)').choices(roles),
    )
    .action(async (options: { port?: number; role?: Role }) => {
      const config = loadConfig(undefined, {
        ...(options.port === undefined ? {} : { port: options.port }),
        ...(options.role === undefined ? {} : { role: options.role }),
      });
      const service = await startService(config, {
        logger: { level: 'info', redact: ['req.headers.authorization', 'req.headers.cookie'] },
        log: (message) => console.log(`quire: ${message}`),
      });
      const where = service.url ?? 'no HTTP listener (worker role)';
      const lines = [`quire: serving at ${where} (role ${config.role}, data in ${config.dataDirectory})`];
      if (service.firstStart) {
        const { project, keySecret } = service.firstStart;
        lines.push(
          '',
          `quire: first start: created the project "${project.name}" with id ${project.id}`,
          'quire: and an admin API key (read, write). It is shown only this once; store it now:',
          '',
          `  ${keySecret}`,
          '',
          `quire: try it: curl -H "Authorization: Bearer ${keySecret}" ${service.url ?? config.publicUrl}/v1/projects/${project.id}`,
          '',
        );
      }
      if (service.firstUser) {
        const { email, password } = service.firstUser;
        lines.push(
          '',
          `quire: dashboard: sign in at ${service.url ?? config.publicUrl}/dashboard as ${email} with this password, shown only this once:`,
          '',
          `  ${password}`,
          '',
          'quire: add people with: quire user create --email someone@example.com',
          '',
        );
      }
      // One write: whoever waits for the "serving at" line (a supervisor, the tests) gets the
      // first start's key and password with it, never a moment later.
      console.log(lines.join('\n'));
      await new Promise<void>((resolve) => {
        let stopping = false;
        const stop = (signal: string) => {
          if (stopping) {
            console.error(`quire: ${signal} again, exiting now`);
            process.exit(1);
          }
          stopping = true;
          console.log(`quire: ${signal}: shutting down`);
          service.close().then(resolve, (error: unknown) => {
            console.error('quire: shutdown failed', error);
            process.exitCode = 1;
            resolve();
          });
        };
        process.on('SIGTERM', () => stop('SIGTERM'));
        process.on('SIGINT', () => stop('SIGINT'));
      });
    });
}
