import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors.ts';

const staticDirectory = path.join(import.meta.dirname, '..', 'static');
const types: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The dashboard's own CSS and scripts, read once when the app is built; nothing from a CDN. */
export function registerAssetRoutes(app: FastifyInstance): void {
  const assets = new Map<string, { body: Buffer; type: string }>();
  for (const file of fs.readdirSync(staticDirectory)) {
    const type = types[path.extname(file)];
    if (type) assets.set(file, { body: fs.readFileSync(path.join(staticDirectory, file)), type });
  }
  app.get<{ Params: { file: string } }>(
    '/assets/:file',
    { config: { dashboardAccess: 'public' } },
    async (request, reply) => {
      const asset = assets.get(request.params.file);
      if (asset === undefined) throw new NotFoundError('No such asset');
      return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
    },
  );
}
