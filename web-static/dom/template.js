// @ts-check
// One shape of elements (a timer row, a section), built once and copied for each item. Building a
// timer row anew is ~20 createElement and ~70 setAttribute calls from script; cloneNode copies the
// whole tree in one native call. On a 10,000-timer board's first load the 250 sections cost 99 ms
// of script built one node at a time (docs/performance.md).
//
// The attributes that name the item (its id, and the ids and references that contain it) hold
// ITEM_ID in the template; `stamp(id)` writes the item's id there. Everything else is the same for
// every item. An id never contains ITEM_ID: ids are [A-Za-z0-9_-] (wire/constants.js).

/** Stands for the item's id in the template's attributes. */
export const ITEM_ID = "\u0001";

export class ElementTemplate {
  /** @param {HTMLElement} root the shape, built with ITEM_ID for the item's id */
  constructor(root) {
    this.root = root;
    /**
     * Where the item's id goes: an element's index in document order (0: the root) and the attribute.
     * @type {{index: number, name: string, value: string}[]}
     */
    this.slots = [];
    [root, ...root.querySelectorAll("*")].forEach((element, index) => {
      for (const name of element.getAttributeNames()) {
        const value = /** @type {string} */ (element.getAttribute(name));
        if (value.includes(ITEM_ID)) this.slots.push({ index, name, value });
      }
    });
  }

  /** A copy of the shape for one item. @param {string} id @returns {HTMLElement} */
  stamp(id) {
    const element = /** @type {HTMLElement} */ (this.root.cloneNode(true));
    const descendants = element.querySelectorAll("*");
    for (const { index, name, value } of this.slots) {
      (index === 0 ? element : descendants[index - 1]).setAttribute(name, value.replaceAll(ITEM_ID, id));
    }
    return element;
  }
}

/** Each document's shapes, by a key of the view's (a shape may hold limits: maxlength, max). @type {WeakMap<Document, Map<string, ElementTemplate>>} */
const templates = new WeakMap();

/**
 * The template for `key` in `doc`, built from `shape()` the first time it is asked for.
 * @param {Document} doc @param {string} key @param {() => HTMLElement} shape
 */
export function templateOf(doc, key, shape) {
  let shapes = templates.get(doc);
  if (!shapes) templates.set(doc, (shapes = new Map()));
  let template = shapes.get(key);
  if (!template) shapes.set(key, (template = new ElementTemplate(shape())));
  return template;
}
