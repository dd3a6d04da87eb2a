// Judging a host's results against the checked-in known differences (known-differences.json):
// an unlisted difference fails, a listed case that matches fails (the listing is stale), a case
// that errs, times out or tried to reach another address fails whatever the listing says.

/**
 * One entry per result: `{ case, outcome, listed, pass, problem, result }`, where outcome is
 * `match`, `deliberate`, `open`, `differ` (unlisted), `timeout` or `error`. With `partial`, listed
 * cases missing from the results are not reported.
 */
export function judge(hostId, results, known, { partial = false } = {}) {
  const listed = new Map(known.filter((entry) => entry.host === hostId).map((entry) => [entry.case, entry]));
  const judged = results.map((result) => {
    const entry = listed.get(result.case);
    const base = { case: result.case, listed: entry ?? null, result };
    if (result.egress?.length)
      return {
        ...base,
        outcome: 'egress',
        pass: false,
        problem: 'the host tried to reach an address off the machine',
      };
    if (result.status === 'timeout' || result.status === 'error') {
      return {
        ...base,
        outcome: result.status,
        pass: false,
        problem: result.status === 'timeout' ? 'timed out twice' : 'the host sent no model request',
      };
    }
    if (result.status === 'match') {
      return entry
        ? {
            ...base,
            outcome: 'match',
            pass: false,
            problem: `listed as ${entry.kind} in known-differences.json but now matches: remove the entry`,
          }
        : { ...base, outcome: 'match', pass: true };
    }
    return entry
      ? { ...base, outcome: entry.kind, pass: true }
      : {
          ...base,
          outcome: 'differ',
          pass: false,
          problem: 'differs and is not listed in known-differences.json',
        };
  });
  if (!partial) {
    const seen = new Set(results.map((result) => result.case));
    for (const entry of listed.values()) {
      if (!seen.has(entry.case)) {
        judged.push({
          case: entry.case,
          listed: entry,
          result: {},
          outcome: 'unknown-case',
          pass: false,
          problem: 'listed in known-differences.json but no such case ran',
        });
      }
    }
  }
  return judged;
}

/** Counts for the host table. */
export function summarize(judged) {
  const count = (outcome) => judged.filter((item) => item.outcome === outcome).length;
  return {
    total: judged.filter((item) => item.outcome !== 'unknown-case').length,
    matched: count('match'),
    deliberate: count('deliberate'),
    open: count('open'),
    failed: judged.filter((item) => !item.pass).length,
  };
}
