// @ts-check
// A big board holds the rows near the screen, not the board. Its sections whose timers are not
// all built ("lazy": far from the screen at the first render, cut where the first screen ended,
// or dropped since) are watched: one coming within BUILD_MARGIN of the screen has its missing rows
// built, nearest section first, one going farther than DROP_MARGIN has them dropped again (the
// store keeps the timers). The work is done in slices, one slice a frame: each frame then has at
// most BUILD_SLICE new rows to style and lay out, whatever the speed of the scroll. What building
// and dropping do to the DOM is the board view's (view.js): this decides when, and for which section.

/** A board up to this many timers is built whole at once; a bigger one builds a screenful first. */
export const BUILD_AT_ONCE = 300;
/**
 * How many timers the first render of a big board builds when the screen's height is not known: a
 * tall screen's worth. Otherwise it builds the rows one screen can show (ROW_HEIGHT each), the last
 * section cut where the screen ends; the rest, below, is built in slices right after the first
 * frame. Whole sections made the first frame of a 2,000-timer board lay out 40 rows for a screen
 * that shows 13 (docs/performance.md).
 */
export const BUILD_FIRST = 30;
/**
 * A one-line timer row's height in px (style.css: --row-height), to count the rows a screen shows
 * at the first render (view.js): narrow windows have taller rows, and then more are built than show.
 */
export const ROW_HEIGHT = 52;
/** How far from the screen a section's timers are built, so they are there before they show. */
export const BUILD_MARGIN = "1500px 0px";
/**
 * How far from the screen a built section drops its timers' elements again: the page then holds
 * what is near the screen, however far the user scrolls. Well beyond BUILD_MARGIN, so a section
 * scrolled past and back is not rebuilt each time.
 */
export const DROP_MARGIN = "6000px 0px";
/** At most this many rows are built per slice (one slice a frame), part of a section if need be. */
export const BUILD_SLICE = 16;
/**
 * How near the screen a row built ahead starts to render. Until then it is `data-fresh`, whose
 * style (content-visibility: hidden) skips its contents' style and layout: Chromium renders a new
 * `content-visibility: auto` element whole on its first frame, wherever it is, so the rows built
 * 1,500 px ahead would cost their style and layout all in the next frame.
 */
export const RENDER_MARGIN = "50% 0px";

/** Fresh rows made to render per idle period, so none stays hidden once the page is at rest. */
export const RENDER_WHEN_IDLE = 8;

/**
 * After the next frame: a slice then never lands in the frame of the one before.
 * @param {() => void} f
 */
function afterNextFrame(f) {
  if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => void setTimeout(f, 0));
  else setTimeout(f, 0);
}

/**
 * When the page has nothing else to do (never, where the platform cannot say: tests).
 * @param {() => void} f
 */
function whenIdle(f) {
  if (typeof requestIdleCallback === "function") requestIdleCallback(f);
}

export class NearbyRows {
  /**
   * @param {{
   *   IntersectionObserver: typeof IntersectionObserver,
   *   schedule?: (f: () => void) => void,
   *   idle?: (f: () => void) => void,
   *   fill: (id: string, max: number) => {ids: string[], left: number},
   *   drop: (element: HTMLElement) => string[],
   *   onBuilt: (ids: string[]) => void,
   * }} options
   *   schedule: runs the next slice (default: after the next frame); idle: runs `f` when the page is idle;
   *   fill: builds at most `max` of a lazy section's missing rows, in display order, returning the
   *   ids built (the section's first) and how many rows it still lacks;
   *   drop: drops a section's rows, returning their ids ([] when it keeps them: the user is in it);
   *   onBuilt: a slice built these ids
   */
  constructor({ IntersectionObserver, schedule = afterNextFrame, idle = whenIdle, fill, drop, onBuilt }) {
    this.IntersectionObserver = IntersectionObserver;
    this.schedule = schedule;
    this.idle = idle;
    this.fill = fill;
    this.drop = drop;
    this.onBuilt = onBuilt;
    /** Sections whose timers are not all built. @type {Set<string>} */
    this.lazy = new Set();
    /** Lazy sections near the screen, waiting for their rows, nearest first. @type {Map<string, number>} id → distance from the screen */
    this.queue = new Map();
    /** Built sections gone far from the screen, waiting to be dropped. @type {Set<HTMLElement>} */
    this.far = new Set();
    this.sliceScheduled = false;
    /** Sees sections come within BUILD_MARGIN of the screen. @type {IntersectionObserver | null} */
    this.nearObserver = null;
    /** Sees sections go farther than DROP_MARGIN from the screen. @type {IntersectionObserver | null} */
    this.farObserver = null;
    /** Sees fresh rows come within RENDER_MARGIN of the screen. @type {IntersectionObserver | null} */
    this.rowObserver = null;
    /** Rows built ahead that have not rendered yet, in the order they were built. @type {Set<HTMLElement>} */
    this.freshRows = new Set();
    this.idleScheduled = false;
  }

  /** Whether any section is watched yet (a new section of a big board is watched too). */
  get watching() {
    return this.nearObserver !== null;
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
    this.lacks(element, timers - shown);
    this.watch(element);
  }

  /** A lazy section's rows still to build, which it keeps room for. @param {HTMLElement} element @param {number} missing */
  lacks(element, missing) {
    element.style.setProperty("--unbuilt", String(missing));
  }

  /** Its timers are all built now (by a slice, or for the run keys: view.js reveal). @param {HTMLElement} element */
  built(element) {
    this.lazy.delete(/** @type {string} */ (element.dataset.id));
    delete element.dataset.built;
    element.style.removeProperty("--timers");
    element.style.removeProperty("--unbuilt");
  }

  /**
   * A built section went far from the screen: the view dropped its timers' elements, and it is a
   * shell again until it comes near.
   * @param {HTMLElement} element @param {number} timers how many it held
   */
  dropped(element, timers) {
    const id = /** @type {string} */ (element.dataset.id);
    // A section still lazy already says how many timers it holds; it showed fewer.
    if (!this.lazy.has(id)) element.style.setProperty("--timers", String(timers));
    element.style.setProperty("--unbuilt", element.style.getPropertyValue("--timers"));
    this.lazy.add(id);
    element.dataset.built = "false";
  }

  /** Watches a section: built when it comes near the screen, dropped when it goes far. @param {HTMLElement} element */
  watch(element) {
    if (!this.nearObserver) {
      const Observer = this.IntersectionObserver;
      this.nearObserver = new Observer((entries) => {
        for (const entry of entries) {
          const target = /** @type {HTMLElement} */ (entry.target);
          const id = /** @type {string} */ (target.dataset.id);
          if (!entry.isIntersecting) continue;
          this.far.delete(target);
          if (!this.lazy.has(id)) continue;
          const box = entry.boundingClientRect;
          this.queue.set(id, box ? Math.max(0, box.top, -box.bottom) : 0);
        }
        this.#scheduleSlice();
      }, { rootMargin: BUILD_MARGIN });
      this.farObserver = new Observer((entries) => {
        for (const entry of entries) {
          const target = /** @type {HTMLElement} */ (entry.target);
          if (entry.isIntersecting) continue;
          this.queue.delete(/** @type {string} */ (target.dataset.id));
          this.far.add(target);
        }
        this.#scheduleSlice();
      }, { rootMargin: DROP_MARGIN });
    }
    this.nearObserver.observe(element);
    this.farObserver?.observe(element);
  }

  /**
   * Rows built ahead of the screen: they render once they come within RENDER_MARGIN of it, or a
   * few at a time when the page is idle, so that none stays out of reach (of the keyboard, of a
   * screen reader, of find in page) once the user stops scrolling.
   * @param {HTMLElement[]} rows
   */
  fresh(rows) {
    if (rows.length === 0) return;
    this.rowObserver ??= new this.IntersectionObserver((entries) => {
      for (const entry of entries) if (entry.isIntersecting) this.forgetRow(/** @type {HTMLElement} */ (entry.target));
    }, { rootMargin: RENDER_MARGIN });
    for (const row of rows) {
      row.dataset.fresh = "";
      this.freshRows.add(row);
      this.rowObserver.observe(row);
    }
    this.#scheduleIdle();
  }

  /** A row renders (it came near, or the page was idle), or is gone. @param {HTMLElement} row */
  forgetRow(row) {
    if (!this.freshRows.delete(row)) return;
    delete row.dataset.fresh;
    this.rowObserver?.unobserve(row);
  }

  #scheduleIdle() {
    if (this.idleScheduled || this.freshRows.size === 0) return;
    this.idleScheduled = true;
    this.idle(() => {
      this.idleScheduled = false;
      let count = 0;
      for (const row of this.freshRows) {
        if (count++ >= RENDER_WHEN_IDLE) break;
        this.forgetRow(row);
      }
      this.#scheduleIdle();
    });
  }

  /** The section is gone from the board. @param {string} id @param {HTMLElement | undefined} element */
  forget(id, element) {
    this.lazy.delete(id);
    this.queue.delete(id);
    if (element) {
      this.far.delete(element);
      this.nearObserver?.unobserve(element);
      this.farObserver?.unobserve(element);
    }
  }

  #scheduleSlice() {
    if (this.sliceScheduled || (this.queue.size === 0 && this.far.size === 0)) return;
    this.sliceScheduled = true;
    this.schedule(() => {
      this.sliceScheduled = false;
      this.#slice();
    });
  }

  /**
   * One slice: a far section's rows dropped, and up to BUILD_SLICE rows built for the queued
   * sections nearest the screen; the rest is left to the next slice.
   */
  #slice() {
    // One section's rows go; the far sections that hold none (most of them: shells) cost nothing.
    for (const far of this.far) {
      this.far.delete(far);
      if (this.drop(far).length > 0) break;
    }
    const nearest = [...this.queue].sort((a, b) => a[1] - b[1]).map(([id]) => id);
    /** @type {string[]} */
    const built = [];
    let room = BUILD_SLICE;
    for (const id of nearest) {
      if (room <= 0) break;
      if (!this.lazy.has(id)) {
        this.queue.delete(id);
        continue;
      }
      const { ids, left } = this.fill(id, room);
      built.push(...ids);
      room -= Math.max(1, ids.length - 1);
      if (left > 0) continue;
      this.queue.delete(id);
      this.lazy.delete(id);
    }
    if (built.length) this.onBuilt(built);
    this.#scheduleSlice();
  }
}
