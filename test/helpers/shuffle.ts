/**
 * A listing order for the in-memory filesystem (`listOrder`): a Fisher–Yates shuffle driven by a
 * linear congruential generator from `seed`, so a property test's failing seed replays the same
 * order.
 */
export function seededShuffle(seed: number): (names: readonly string[]) => string[] {
  return (names) => {
    const copy = [...names];
    let state = seed >>> 0;
    for (let index = copy.length - 1; index > 0; index -= 1) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      const other = state % (index + 1);
      [copy[index], copy[other]] = [copy[other] as string, copy[index] as string];
    }
    return copy;
  };
}
