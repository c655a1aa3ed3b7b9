import type { FastifyReply } from 'fastify';
import type { SafeHtml } from './html.ts';

/** Sends a page that no cache may keep: pages can hold a secret shown once. */
export function sendPage(reply: FastifyReply, page: SafeHtml): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page.value);
}
