// Rows about a host's subagents and modes (docs/subagents.md). A `subagent` row has the model start
// a subagent through the host's own tool (the driver's `subagentCall`); the subagent's first
// request must carry the hook's answer to `SubagentStart` for that subagent, hold the texts of its
// agent layer and none of the other layers' texts. A `mode` row starts the host in a mode (the
// driver's `modeArgs`); its first request must carry the hook's answer to the event that delivers a
// mode's step (`modeEvent`), and hold or lack the step's texts. `CONFORMANCE_UNMAPPED=1` runs the
// rows with `subagents`, `modes` and `agents` taken out of the hook's config: every row must then
// differ (the rows test the mapping, not only that both sides agree).

/** What the model's Agent call asks of the subagent: how the lab knows the subagent's requests. */
export const SUBAGENT_TASK = 'LAB-SUBAGENT-TASK: reply with one word.';

/** The hook config of a row, without the mapping when the lab runs unmapped. */
export function layerHookConfig(row) {
  const config = structuredClone(row.hookConfig ?? { contextPaths: ['RULES.md'] });
  if (process.env.CONFORMANCE_UNMAPPED === '1') {
    delete config.subagents;
    delete config.modes;
    delete config.agents;
  }
  return config;
}

/** Every string in a request body but the tool definitions: what the model reads. */
export function requestTexts(body) {
  const texts = [];
  const walk = (value, key) => {
    if (key === 'tools') return;
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) for (const item of value) walk(item);
    else if (value && typeof value === 'object')
      for (const [name, child] of Object.entries(value)) walk(child, name);
  };
  walk(body);
  return texts.join('\n');
}

/** The first user text of a request (the subagent's task, for its requests). */
function firstUserText(host, body) {
  return host.firstUserText?.(body) ?? requestTexts(body);
}

/** Whether a recorded request is the subagent's: its first user message is the lab's task. */
export const isSubagentRequest = (host, record) =>
  record.body && typeof record.body === 'object' && !host.isCompaction?.(record)
    ? (host.isSubagentRequest?.(record) ?? firstUserText(host, record.body).includes(SUBAGENT_TASK))
    : false;

/**
 * The script of a `subagent` row: the main agent's first request gets the call that starts the
 * subagent; the subagent and everything after get the final text.
 */
export function layerPlan(host, row, finalText) {
  return ({ body, record }) => {
    if (!row.subagent || isSubagentRequest(host, record)) return { text: finalText };
    if (host.isMain(record) && !host.hasToolResult(body)) {
      const call = host.subagentCall(body, row.subagent.type, SUBAGENT_TASK);
      if (call) return { call };
    }
    // A host whose subagents run in the background (Codex) is asked to wait for it.
    const follow = host.isMain(record) ? host.followSubagent?.(body) : undefined;
    if (follow) return { call: follow };
    return { text: finalText };
  };
}

/**
 * The comparison of a layer row: what the hook answers (escaped as the host escapes it), and the
 * texts the row's layers must and must not bring, both against the request that must carry them.
 * `hookAnswer(event)` runs the hook on one event with a fresh state.
 */
export async function judgeLayers(host, row, requests, hookAnswer) {
  const spec = row.subagent ?? row.mode;
  const target = row.subagent
    ? requests.find((record) => isSubagentRequest(host, record))
    : requests.find((record) => host.isMain(record));
  const event = row.subagent
    ? { hook_event_name: 'SubagentStart', agent_id: 'lab-agent', agent_type: row.subagent.type }
    : {
        hook_event_name: host.modeEvent ?? 'UserPromptSubmit',
        permission_mode: row.mode.name,
        ...(host.modeEvent === 'SessionStart' ? { source: 'startup' } : { prompt: 'lab' }),
      };
  const answer = await hookAnswer(event);
  const shown = (host.escapeHookText ?? ((text) => text))(answer);
  const texts = target ? requestTexts(target.body) : '';
  // One line per check; `found` says whether a text is in the request (always, for the expectation).
  const lines = (found) => [
    `hook answer to ${event.hook_event_name} (${row.subagent?.type ?? row.mode.name}): ${
      answer === '' ? '(nothing)' : found(shown) ? 'carried' : 'NOT CARRIED'
    }`,
    ...(spec.contains ?? []).map((text) => `holds ${JSON.stringify(text)}: ${found(text) ? 'yes' : 'NO'}`),
    ...(spec.lacks ?? []).map(
      (text) => `lacks ${JSON.stringify(text)}: ${found(text) === false ? 'yes' : 'NO'}`,
    ),
  ];
  const expected = lines((text) => !(spec.lacks ?? []).includes(text)).join('\n');
  const actual = target
    ? lines((text) => texts.includes(text)).join('\n')
    : `(no ${row.subagent ? 'subagent' : 'main'} request was recorded)`;
  return { part: 'live', status: expected === actual ? 'match' : 'differ', expected, actual };
}
