// @ts-check
// A big board holds the rows near the screen, not the board. Its sections whose timers are not
// all built ("lazy": far from the screen at the first render, cut where the first screen ended,
// or dropped since) are watched: one coming within BUILD_MARGIN of the screen has its timers built
// in slices (nearest first), one going farther than DROP_MARGIN has them dropped again (the store
// keeps the timers). What building and dropping do to the DOM is the board view's (view.js): this
// decides when, and for which section.

/** How far from the screen a section's timers are built, so they are there before they show. */
export const BUILD_MARGIN = "1500px 0px";
/**
 * How far from the screen a built section drops its timers' elements again: the page then holds
 * what is near the screen, however far the user scrolls. Well beyond BUILD_MARGIN, so a section
 * scrolled past and back is not rebuilt each time.
 */
export const DROP_MARGIN = "6000px 0px";
/** At most this many timers are built per task while sections come near: scrolling never waits on one long task. */
export const BUILD_SLICE = 80;

export class NearbyRows {
  /**
   * @param {{
   *   IntersectionObserver: typeof IntersectionObserver,
   *   schedule: (f: () => void) => void,
   *   fill: (id: string) => string[],
   *   drop: (element: HTMLElement) => string[],
   *   onBuilt: (ids: string[]) => void,
   * }} options
   *   fill: builds a lazy section's missing timers, returning the ids built (the section's first);
   *   drop: drops a section's timers, returning their ids ([] when it keeps them: the user is in it);
   *   onBuilt: a slice built these ids
   */
  constructor({ IntersectionObserver, schedule, fill, drop, onBuilt }) {
    this.IntersectionObserver = IntersectionObserver;
    this.schedule = schedule;
    this.fill = fill;
    this.drop = drop;
    this.onBuilt = onBuilt;
    /** Sections whose timers are not all built. @type {Set<string>} */
    this.lazy = new Set();
    /** Lazy sections near the screen, waiting for their slice, nearest first. @type {Map<string, number>} id → distance from the screen */
    this.queue = new Map();
    this.sliceScheduled = false;
    /** Sees sections come within BUILD_MARGIN of the screen. @type {IntersectionObserver | null} */
    this.near = null;
    /** Sees sections go farther than DROP_MARGIN from the screen. @type {IntersectionObserver | null} */
    this.far = null;
  }

  /** Whether any section is watched yet (a new section of a big board is watched too). */
  get watching() {
    return this.near !== null;
  }

  /** @param {string} id */
  isLazy(id) {
    return this.lazy.has(id);
  }

  /**
   * A section whose timers are not all built: sized for them meanwhile (style.css), so that what
   * is below it does not look near the screen before its rows arrive and push it away.
   * @param {HTMLElement} element @param {number} timers how many it holds @param {number} shown how many are built
   */
  defer(element, timers, shown) {
    this.lazy.add(/** @type {string} */ (element.dataset.id));
    element.dataset.built = "false";
    element.style.setProperty("--timers", String(timers));
    element.style.setProperty("--unbuilt", String(timers - shown));
    this.watch(element);
  }

  /**
   * A built section went far from the screen: the view dropped its timers' elements, and it is a
   * shell again until it comes near.
   * @param {HTMLElement} element @param {number} timers how many it held
   */
  dropped(element, timers) {
    // A section cut by the first screen already says how many timers it holds; it showed fewer.
    if (!this.lazy.has(/** @type {string} */ (element.dataset.id))) element.style.setProperty("--timers", String(timers));
    element.style.setProperty("--unbuilt", element.style.getPropertyValue("--timers"));
    this.lazy.add(/** @type {string} */ (element.dataset.id));
    element.dataset.built = "false";
  }

  /** Its timers are all built now. @param {HTMLElement} element */
  built(element) {
    delete element.dataset.built;
    element.style.removeProperty("--timers");
    element.style.removeProperty("--unbuilt");
  }

  /** Watches a section: built when it comes near the screen, dropped when it goes far. @param {HTMLElement} element */
  watch(element) {
    if (!this.near) {
      const Observer = this.IntersectionObserver;
      this.near = new Observer((entries) => {
        for (const entry of entries) {
          const id = /** @type {string} */ (/** @type {HTMLElement} */ (entry.target).dataset.id);
          if (!entry.isIntersecting || !this.lazy.has(id)) continue;
          const box = entry.boundingClientRect;
          this.queue.set(id, box ? Math.max(0, box.top, -box.bottom) : 0);
        }
        this.#scheduleSlice();
      }, { rootMargin: BUILD_MARGIN });
      this.far = new Observer((entries) => {
        for (const entry of entries) if (!entry.isIntersecting) this.#dropFar(/** @type {HTMLElement} */ (entry.target));
      }, { rootMargin: DROP_MARGIN });
    }
    this.near.observe(element);
    this.far?.observe(element);
  }

  /** The section is gone from the board. @param {string} id @param {HTMLElement | undefined} element */
  forget(id, element) {
    this.lazy.delete(id);
    this.queue.delete(id);
    if (element) {
      this.near?.unobserve(element);
      this.far?.unobserve(element);
    }
  }

  /** @param {HTMLElement} element */
  #dropFar(element) {
    this.queue.delete(/** @type {string} */ (element.dataset.id));
    this.drop(element);
  }

  #scheduleSlice() {
    if (this.sliceScheduled || this.queue.size === 0) return;
    this.sliceScheduled = true;
    this.schedule(() => {
      this.sliceScheduled = false;
      this.#buildSlice();
    });
  }

  /**
   * Builds the timers of the queued sections nearest the screen, about BUILD_SLICE timers (whole
   * sections), and leaves the rest to the next task.
   */
  #buildSlice() {
    const nearest = [...this.queue].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    /** @type {string[]} */
    const built = [];
    let count = 0;
    for (const id of nearest) {
      if (count >= BUILD_SLICE) break;
      this.queue.delete(id);
      if (!this.lazy.delete(id)) continue;
      const ids = this.fill(id);
      built.push(...ids);
      count += ids.length;
    }
    if (built.length) this.onBuilt(built);
    this.#scheduleSlice();
  }
}
