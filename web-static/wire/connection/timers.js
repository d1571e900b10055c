// @ts-check
// Named timeouts on the connection's platform (its injectable `setTimeout`), so each part of the
// connection can start, replace and cancel its own without keeping handles by hand, and tests can
// drive them with a fake clock.

/** @typedef {{setTimeout: (f: () => void, ms: number) => any, clearTimeout: (handle: any) => void}} TimerEnvironment */

export class Timers {
  /** @param {TimerEnvironment} env */
  constructor(env) {
    this.env = env;
    /** @type {Map<string, any>} the pending ones, by name */
    this.pending = new Map();
  }

  /**
   * Runs `action` in `ms`, replacing a pending timer of that name. Once it fires it is no longer pending.
   * @param {string} name @param {number} ms @param {() => void} action
   */
  start(name, ms, action) {
    this.clear(name);
    this.pending.set(name, this.env.setTimeout(() => {
      this.pending.delete(name);
      action();
    }, ms));
  }

  /** @param {string} name */
  clear(name) {
    if (!this.pending.has(name)) return;
    this.env.clearTimeout(this.pending.get(name));
    this.pending.delete(name);
  }

  clearAll() {
    for (const name of [...this.pending.keys()]) this.clear(name);
  }

  /** @param {string} name */
  has(name) {
    return this.pending.has(name);
  }
}
