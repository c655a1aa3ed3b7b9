/**
 * The listener's connection limit (`QUIRE_MAX_CONNECTIONS`) over real sockets: idle connections
 * up to the limit are kept, one beyond is closed as it arrives, and a place freed is taken again.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import { buildTestServices } from '../../test/app.ts';
import { createTestDatabase } from '../../test/database.ts';

const database = await createTestDatabase();
const { app } = await buildTestServices(database, { environment: { QUIRE_MAX_CONNECTIONS: '2' } });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as AddressInfo;
after(() => app.close());

/** A raw connection, resolved once connected. */
function connect(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** What the server answers to a health check on `socket`, or null when it closes the socket first. */
function healthCheck(socket: net.Socket): Promise<string | null> {
  return new Promise((resolve) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n\r\n')) resolve(received.split('\r\n')[0] ?? '');
    });
    socket.once('close', () => resolve(null));
    socket.once('error', () => resolve(null));
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
  });
}

describe('connection limit', () => {
  it('closes a connection beyond the limit and takes one again when a place is free', async () => {
    const first = await connect();
    const second = await connect();
    assert.equal(await healthCheck(first), 'HTTP/1.1 200 OK');
    assert.equal(await healthCheck(second), 'HTTP/1.1 200 OK');
    const third = await connect();
    assert.equal(await healthCheck(third), null, 'the third connection is closed');
    first.destroy();
    // The server counts the freed place once it has seen the socket close.
    let fourthAnswer: string | null = null;
    for (let attempt = 0; attempt < 50 && fourthAnswer === null; attempt += 1) {
      const fourth = await connect();
      fourthAnswer = await healthCheck(fourth);
      fourth.destroy();
      if (fourthAnswer === null) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(fourthAnswer, 'HTTP/1.1 200 OK');
    second.destroy();
  });
});
