/**
 * A local Web Bot Auth agent: a key directory served over a real socket
 * (`/.well-known/http-message-signatures-directory`), and a signer for requests, using the Ed25519
 * test key of RFC 9421 Appendix B.1.4 (https://www.rfc-editor.org/rfc/rfc9421#appendix-B.1.4).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { HTTP_MESSAGE_SIGNATURES_DIRECTORY, signatureHeaders } from 'web-bot-auth';
import { signerFromJWK } from 'web-bot-auth/crypto';

export const rfc9421Ed25519Key = {
  kty: 'OKP',
  crv: 'Ed25519',
  kid: 'test-key-ed25519',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
};

export interface WebBotAuthDouble {
  /** Base URL of the key directory's origin. */
  url: string;
  /** Directory fetches so far. */
  fetches: number;
  /** Serve no keys (as an agent that rotated them away would). */
  publishKeys: boolean;
  /** Signature headers for a request, as the agent would send them. */
  sign(request: {
    method: string;
    url: string;
    signatureAgent: string;
    created?: Date;
    expires?: Date;
  }): Promise<{ signature: string; 'signature-input': string; 'signature-agent': string }>;
}

export async function startWebBotAuthDouble(): Promise<WebBotAuthDouble> {
  const { d: _private, ...publicKey } = rfc9421Ed25519Key;
  const double: WebBotAuthDouble = {
    url: '',
    fetches: 0,
    publishKeys: true,
    async sign(request) {
      const created = request.created ?? new Date();
      const headers = await signatureHeaders(
        { method: request.method, url: request.url, headers: { 'signature-agent': request.signatureAgent } },
        await signerFromJWK(rfc9421Ed25519Key),
        { created, expires: request.expires ?? new Date(created.getTime() + 300_000) },
      );
      return {
        signature: headers.Signature,
        'signature-input': headers['Signature-Input'],
        'signature-agent': request.signatureAgent,
      };
    },
  };
  const server = http.createServer((request, response) => {
    if (request.url !== HTTP_MESSAGE_SIGNATURES_DIRECTORY) {
      response.writeHead(404).end();
      return;
    }
    double.fetches += 1;
    response
      .writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json' })
      .end(JSON.stringify({ keys: double.publishKeys ? [publicKey] : [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  double.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return double;
}
