// Preloaded (NODE_OPTIONS=--require) into Node-based hosts that fetch an outside address at start
// with no setting to turn it off (Continue CLI asks for its newest version on load): a fetch to
// any host but loopback fails at once, as it would offline, so no DNS query is even made.
'use strict';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const original = globalThis.fetch;

if (typeof original === 'function') {
  globalThis.fetch = function labFetch(input, init) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input?.url;
    let host = '';
    try {
      host = new URL(String(url)).hostname;
    } catch {
      // Not an absolute URL: left to fetch itself.
      return original.call(this, input, init);
    }
    if (LOOPBACK.has(host)) return original.call(this, input, init);
    return Promise.reject(new TypeError('fetch failed', { cause: new Error(`lab: offline (${host})`) }));
  };
}
