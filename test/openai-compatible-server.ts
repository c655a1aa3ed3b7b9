import { startHttpDouble } from './http-double.ts';

export interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>;
  tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>;
}

export type ChatTurn =
  | { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
  | { text: string }
  | { status: number; error: string };

/**
 * A scripted OpenAI-compatible server (`POST /v1/chat/completions`, non-streaming) on 127.0.0.1:
 * each request gets the next turn of the script (or what a function of the request returns).
 * Requires `Authorization: Bearer <apiKey>`.
 */
export async function startOpenAICompatibleServer(options: {
  apiKey: string;
  script: Array<ChatTurn | ((request: ChatRequest) => ChatTurn)>;
}) {
  let index = 0;
  const chatRequests: ChatRequest[] = [];
  const server = await startHttpDouble((request) => {
    if (request.method !== 'POST' || request.path !== '/v1/chat/completions')
      return { status: 404, body: { error: { message: 'Not found' } } };
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return {
        status: 401,
        body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
      };
    }
    const body = request.body as ChatRequest;
    chatRequests.push(body);
    const step = options.script[Math.min(index, options.script.length - 1)];
    index += 1;
    if (step === undefined) return { status: 500, body: { error: { message: 'empty script' } } };
    const turn = typeof step === 'function' ? step(body) : step;
    if ('status' in turn)
      return { status: turn.status, body: { error: { message: turn.error, type: 'server_error' } } };
    const toolCalls =
      'toolCalls' in turn
        ? turn.toolCalls.map((call, position) => ({
            id: `call_${index}_${position}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          }))
        : undefined;
    return {
      status: 200,
      body: {
        id: `chatcmpl-${index}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'text' in turn ? turn.text : null,
              ...(toolCalls === undefined ? {} : { tool_calls: toolCalls }),
            },
            finish_reason: toolCalls === undefined ? 'stop' : 'tool_calls',
          },
        ],
        // OpenAI reports the prefix it read from its automatic prompt cache in
        // prompt_tokens_details.cached_tokens (https://platform.openai.com/docs/guides/prompt-caching):
        // every call after a conversation's first has one here.
        usage: {
          prompt_tokens: 250,
          completion_tokens: 30,
          total_tokens: 280,
          prompt_tokens_details: { cached_tokens: body.messages.length > 2 ? 200 : 0 },
        },
      },
    };
  });
  return { ...server, chatRequests, baseUrl: `${server.url}/v1` };
}
