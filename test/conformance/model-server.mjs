// The lab's model server: one HTTP server on 127.0.0.1 that speaks the wire APIs the agent CLIs
// use (OpenAI Responses and Chat Completions, Anthropic Messages, Gemini), records every request
// and answers from a script. The script is stateless: a request that already carries a tool
// result gets the final text; a request that offers tools gets the scripted tool call, if the case
// has one and the host's driver can build it from the tools offered; anything else gets the text.
import http from 'node:http';

/** The text every scripted conversation ends with. */
export const FINAL_TEXT = 'Done.';

/**
 * Starts the server. `plan(request)` returns `{ call: { name, args, namespace?, id? } }` for a tool
 * call (`id`: the Messages API's tool use id, for a script of more than one call; `{ name, custom:
 * true, input }`: a Responses API freeform tool call with a text input), or `{ text }`; the default answers text.
 * `usage` in a step is merged over the token usage the answer reports (in the wire API's own
 * field names): a script reports a full context window that way, and the host compacts.
 * Resolves to `{ port, requests, close }`.
 */
export async function startModelServer({ plan = () => ({ text: FINAL_TEXT }), timeoutMs = 120_000 } = {}) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = raw;
      try {
        body = raw === '' ? null : JSON.parse(raw);
      } catch {
        // Kept as text.
      }
      const record = { method: req.method, url: req.url, body };
      requests.push(record);
      try {
        answer(record, req, res, plan);
      } catch (error) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Bounded: the server closes itself after timeoutMs whatever happens.
  const timer = setTimeout(() => close(), timeoutMs);
  timer.unref();
  function close() {
    clearTimeout(timer);
    server.closeAllConnections?.();
    return new Promise((resolve) => server.close(() => resolve()));
  }
  return { port: server.address().port, requests, close };
}

function answer(record, req, res, plan) {
  const url = new URL(record.url, 'http://127.0.0.1');
  const p = url.pathname;
  const body = record.body ?? {};
  if (req.method === 'GET' && /\/models\/?$/.test(p)) return json(res, modelList(p));
  if (p.endsWith('/responses')) return responses(res, body, plan({ api: 'responses', body, record }));
  if (p.endsWith('/chat/completions')) return chat(res, body, plan({ api: 'chat', body, record }));
  if (p.endsWith('/messages/count_tokens')) return json(res, { input_tokens: approxTokens(record) });
  if (p.endsWith('/messages')) return anthropic(res, body, plan({ api: 'anthropic', body, record }));
  if (p.endsWith(':countTokens')) return json(res, { totalTokens: approxTokens(record) });
  if (p.endsWith(':streamGenerateContent')) return gemini(res, plan({ api: 'gemini', body, record }), true);
  if (p.endsWith(':generateContent')) return gemini(res, plan({ api: 'gemini', body, record }), false);
  if (p.endsWith(':embedContent') || p.endsWith(':batchEmbedContents'))
    return json(res, { embeddings: [{ values: [0, 0, 0] }], embedding: { values: [0, 0, 0] } });
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message: `not served by the lab: ${req.method} ${p}` } }));
}

const approxTokens = (record) => Math.ceil(JSON.stringify(record.body ?? '').length / 4);

function modelList(p) {
  const ids = ['lab-model'];
  if (p.includes('/v1beta/')) return { models: ids.map((id) => ({ name: `models/${id}` })) };
  return {
    object: 'list',
    data: ids.map((id) => ({
      id,
      object: 'model',
      type: 'model',
      display_name: id,
      created: 0,
      created_at: '2026-01-01T00:00:00Z',
      owned_by: 'lab',
    })),
    has_more: false,
    first_id: ids[0],
    last_id: ids.at(-1),
  };
}

function json(res, value) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function sse(res, events) {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'close',
  });
  for (const [name, data] of events) {
    res.write(
      `${name === null ? '' : `event: ${name}\n`}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    );
  }
  res.end();
}

const USAGE_OPENAI = {
  input_tokens: 10,
  output_tokens: 2,
  total_tokens: 12,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens_details: { reasoning_tokens: 0 },
};

function responses(res, body, step) {
  const item = step.call?.custom
    ? {
        // A freeform tool (Codex's `apply_patch`): its input is plain text, not JSON arguments.
        type: 'custom_tool_call',
        id: 'ctc_lab_1',
        call_id: 'call_lab_1',
        name: step.call.name,
        input: step.call.input,
        status: 'completed',
      }
    : step.call
      ? {
          type: 'function_call',
          // `callId`: a Responses API call id of its own (a script of more than one call).
          id: `fc_${step.call.callId ?? 'lab_1'}`,
          call_id: step.call.callId ?? 'call_lab_1',
          ...(step.call.namespace ? { namespace: step.call.namespace } : {}),
          name: step.call.name,
          arguments: JSON.stringify(step.call.args),
          status: 'completed',
        }
      : {
          type: 'message',
          id: 'msg_lab_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: step.text, annotations: [] }],
        };
  const base = {
    id: 'resp_lab_1',
    object: 'response',
    created_at: 1_700_000_000,
    model: body.model ?? 'lab-model',
  };
  const events = [
    [
      'response.created',
      {
        type: 'response.created',
        sequence_number: 0,
        response: { ...base, status: 'in_progress', output: [] },
      },
    ],
    [
      'response.output_item.added',
      {
        type: 'response.output_item.added',
        sequence_number: 1,
        output_index: 0,
        item: {
          ...item,
          status: 'in_progress',
          ...(step.call?.custom ? { input: '' } : step.call ? { arguments: '' } : { content: [] }),
        },
      },
    ],
  ];
  if (step.call?.custom) {
    events.push([
      'response.custom_tool_call_input.delta',
      {
        type: 'response.custom_tool_call_input.delta',
        sequence_number: 2,
        item_id: item.id,
        output_index: 0,
        delta: item.input,
      },
    ]);
    events.push([
      'response.custom_tool_call_input.done',
      {
        type: 'response.custom_tool_call_input.done',
        sequence_number: 3,
        item_id: item.id,
        output_index: 0,
        input: item.input,
      },
    ]);
  } else if (step.call) {
    events.push([
      'response.function_call_arguments.delta',
      {
        type: 'response.function_call_arguments.delta',
        sequence_number: 2,
        item_id: item.id,
        output_index: 0,
        delta: item.arguments,
      },
    ]);
    events.push([
      'response.function_call_arguments.done',
      {
        type: 'response.function_call_arguments.done',
        sequence_number: 3,
        item_id: item.id,
        output_index: 0,
        arguments: item.arguments,
      },
    ]);
  } else {
    const part = { type: 'output_text', text: '', annotations: [] };
    events.push([
      'response.content_part.added',
      {
        type: 'response.content_part.added',
        sequence_number: 2,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part,
      },
    ]);
    events.push([
      'response.output_text.delta',
      {
        type: 'response.output_text.delta',
        sequence_number: 3,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        delta: step.text,
      },
    ]);
    events.push([
      'response.output_text.done',
      {
        type: 'response.output_text.done',
        sequence_number: 4,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        text: step.text,
      },
    ]);
    events.push([
      'response.content_part.done',
      {
        type: 'response.content_part.done',
        sequence_number: 5,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: { ...part, text: step.text },
      },
    ]);
  }
  events.push([
    'response.output_item.done',
    { type: 'response.output_item.done', sequence_number: 6, output_index: 0, item },
  ]);
  events.push([
    'response.completed',
    {
      type: 'response.completed',
      sequence_number: 7,
      response: { ...base, status: 'completed', output: [item], usage: { ...USAGE_OPENAI, ...step.usage } },
    },
  ]);
  if (body.stream === false)
    return json(res, {
      ...base,
      status: 'completed',
      output: [item],
      usage: { ...USAGE_OPENAI, ...step.usage },
    });
  sse(res, events);
}

function chat(res, body, step) {
  const base = {
    id: 'chatcmpl-lab',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: body.model ?? 'lab-model',
  };
  const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12, ...step.usage };
  const message = step.call
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_lab_1',
            type: 'function',
            function: { name: step.call.name, arguments: JSON.stringify(step.call.args) },
          },
        ],
      }
    : { role: 'assistant', content: step.text };
  const finish = step.call ? 'tool_calls' : 'stop';
  if (body.stream !== true) {
    return json(res, {
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
  }
  const delta = step.call
    ? { role: 'assistant', tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) }
    : { role: 'assistant', content: step.text };
  sse(res, [
    [null, { ...base, choices: [{ index: 0, delta, finish_reason: null }] }],
    [null, { ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] }],
    [null, { ...base, choices: [], usage }],
    [null, '[DONE]'],
  ]);
}

function anthropic(res, body, step) {
  const usage = {
    input_tokens: 10,
    output_tokens: 2,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...step.usage,
  };
  const block = step.call
    ? { type: 'tool_use', id: step.call.id ?? 'toolu_lab_1', name: step.call.name, input: step.call.args }
    : { type: 'text', text: step.text };
  const stop = step.call ? 'tool_use' : 'end_turn';
  const message = {
    id: 'msg_lab_1',
    type: 'message',
    role: 'assistant',
    model: body.model ?? 'lab-model',
    content: [block],
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
  if (body.stream !== true) return json(res, message);
  const start = step.call ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta = step.call
    ? { type: 'input_json_delta', partial_json: JSON.stringify(step.call.args) }
    : { type: 'text_delta', text: step.text };
  sse(res, [
    ['message_start', { type: 'message_start', message: { ...message, content: [], stop_reason: null } }],
    ['content_block_start', { type: 'content_block_start', index: 0, content_block: start }],
    ['content_block_delta', { type: 'content_block_delta', index: 0, delta }],
    ['content_block_stop', { type: 'content_block_stop', index: 0 }],
    [
      'message_delta',
      {
        type: 'message_delta',
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: 2 },
      },
    ],
    ['message_stop', { type: 'message_stop' }],
  ]);
}

function gemini(res, step, stream) {
  const part = step.call
    ? { functionCall: { name: step.call.name, args: step.call.args } }
    : { text: step.text };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12, ...step.usage },
    modelVersion: 'lab-model',
  };
  if (!stream) return json(res, chunk);
  sse(res, [[null, chunk]]);
}
