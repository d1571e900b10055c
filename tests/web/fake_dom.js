// @ts-check
// A tiny DOM for unit tests of the board's views and elements under `node --test` (no npm): elements,
// text, attributes, dataset, classList, style, input values and focus, and querySelector for simple
// selectors (`*`, `tag`, `#id`, `.class`, `[attr]`, `[attr=value]`, combined, no combinators). Every change is
// logged in `doc.mutations`, as a MutationObserver would see it (`value` too, which it would not),
// so a test can say exactly what a patch touched.

/** @typedef {{type: "attributes" | "childList" | "characterData" | "value", target: FakeElement, name?: string}} Mutation */

class FakeNode {
  /** @param {FakeDocument} doc */
  constructor(doc) {
    this.ownerDocument = doc;
    /** @type {FakeElement | null} */
    this.parentElement = null;
  }

  remove() {
    const parent = this.parentElement;
    if (!parent) return;
    parent.childNodes.splice(parent.childNodes.indexOf(this), 1);
    this.parentElement = null;
    this.ownerDocument.log({ type: "childList", target: parent });
  }
}

class FakeText extends FakeNode {
  /** @param {FakeDocument} doc @param {string} data */
  constructor(doc, data) {
    super(doc);
    this.data = data;
  }

  get textContent() {
    return this.data;
  }
}

export class FakeElement extends FakeNode {
  /** @param {FakeDocument} doc @param {string} tag */
  constructor(doc, tag) {
    super(doc);
    this.tagName = tag.toUpperCase();
    /** @type {Map<string, string>} */
    this.attributes = new Map();
    /** @type {FakeNode[]} */
    this.childNodes = [];
    this._value = "";
    this.selectionStart = /** @type {number | null} */ (0);
    this.selectionEnd = /** @type {number | null} */ (0);
    const element = this;
    this.dataset = new Proxy(/** @type {Record<string, string | undefined>} */ ({}), {
      get: (_, key) => element.getAttribute(dataName(String(key))) ?? undefined,
      set: (_, key, value) => (element.setAttribute(dataName(String(key)), String(value)), true),
      deleteProperty: (_, key) => (element.removeAttribute(dataName(String(key))), true),
      has: (_, key) => element.hasAttribute(dataName(String(key))),
    });
    this.classList = {
      contains: (/** @type {string} */ name) => this.#classes().includes(name),
      add: (/** @type {string} */ name) => this.classList.contains(name) || this.setAttribute("class", [...this.#classes(), name].join(" ")),
      remove: (/** @type {string} */ name) => this.classList.contains(name) && this.setAttribute("class", this.#classes().filter((c) => c !== name).join(" ")),
      toggle: (/** @type {string} */ name, /** @type {boolean | undefined} */ force) => {
        const on = force ?? !this.classList.contains(name);
        if (on) this.classList.add(name);
        else this.classList.remove(name);
        return on;
      },
    };
    /** @type {Map<string, string>} */
    const properties = new Map();
    this.style = {
      setProperty: (/** @type {string} */ name, /** @type {string} */ value) => {
        properties.set(name, value);
        this.ownerDocument.log({ type: "attributes", target: this, name: "style" });
      },
      getPropertyValue: (/** @type {string} */ name) => properties.get(name) ?? "",
      removeProperty: (/** @type {string} */ name) => {
        if (properties.delete(name)) this.ownerDocument.log({ type: "attributes", target: this, name: "style" });
      },
    };
  }

  #classes() {
    return (this.getAttribute("class") ?? "").split(/\s+/).filter(Boolean);
  }

  /** @param {string} name */
  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }

  /** @param {string} name */
  hasAttribute(name) {
    return this.attributes.has(name);
  }

  /** @param {string} name @param {string} value */
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
    this.ownerDocument.log({ type: "attributes", target: this, name });
  }

  getAttributeNames() {
    return [...this.attributes.keys()];
  }

  /** A copy of its attributes, value and (deep) children, not in any parent; unlogged, like any change to a detached element. @param {boolean} [deep] */
  cloneNode(deep = false) {
    const copy = new FakeElement(this.ownerDocument, this.tagName.toLowerCase());
    copy.attributes = new Map(this.attributes);
    copy._value = this._value;
    if (deep) copy.append(...this.childNodes.map((n) => (n instanceof FakeElement ? n.cloneNode(true) : new FakeText(this.ownerDocument, /** @type {FakeText} */ (n).data))));
    return copy;
  }

  /** @param {string} name */
  removeAttribute(name) {
    if (this.attributes.delete(name)) this.ownerDocument.log({ type: "attributes", target: this, name });
  }

  get id() { return this.getAttribute("id") ?? ""; }
  get title() { return this.getAttribute("title") ?? ""; }
  set title(value) { this.setAttribute("title", value); }
  get hidden() { return this.hasAttribute("hidden"); }
  set hidden(value) { if (value) this.setAttribute("hidden", ""); else this.removeAttribute("hidden"); }
  get type() { return this.getAttribute("type") ?? (this.tagName === "INPUT" ? "text" : ""); }

  get value() { return this._value; }
  set value(text) {
    this._value = String(text);
    this.ownerDocument.log({ type: "value", target: this });
  }

  /** @param {number} start @param {number} end */
  setSelectionRange(start, end) {
    this.selectionStart = start;
    this.selectionEnd = end;
  }

  focus() {
    this.ownerDocument.activeElement = this;
  }

  blur() {
    if (this.ownerDocument.activeElement === this) this.ownerDocument.activeElement = null;
  }

  get children() {
    return /** @type {FakeElement[]} */ (this.childNodes.filter((n) => n instanceof FakeElement));
  }

  get nextElementSibling() {
    const siblings = this.parentElement?.children ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }

  get isConnected() {
    /** @type {FakeNode} */
    let node = this;
    while (node.parentElement) node = node.parentElement;
    return node === this.ownerDocument.body;
  }

  get textContent() {
    return this.childNodes.map((n) => /** @type {any} */ (n).textContent).join("");
  }

  set textContent(text) {
    for (const child of this.childNodes) child.parentElement = null;
    this.childNodes = text === "" ? [] : [new FakeText(this.ownerDocument, text)];
    this.childNodes.forEach((n) => (n.parentElement = this));
    this.ownerDocument.log({ type: "characterData", target: this });
  }

  /** @param {(FakeNode | string)[]} nodes */
  append(...nodes) {
    for (const node of nodes) this.insertBefore(typeof node === "string" ? new FakeText(this.ownerDocument, node) : node, null);
  }

  /** @param {(FakeNode | string)[]} nodes */
  replaceChildren(...nodes) {
    for (const child of [...this.childNodes]) child.remove();
    this.append(...nodes);
  }

  /** @param {FakeNode} node @param {FakeNode | null} before */
  insertBefore(node, before) {
    if (node.parentElement) node.remove();
    const index = before ? this.childNodes.indexOf(before) : this.childNodes.length;
    this.childNodes.splice(index < 0 ? this.childNodes.length : index, 0, node);
    node.parentElement = this;
    this.ownerDocument.log({ type: "childList", target: this });
    return node;
  }

  /** @param {FakeNode | null} node */
  contains(node) {
    for (let n = node; n; n = n.parentElement) if (n === this) return true;
    return false;
  }

  /** @param {string} selector @returns {FakeElement | null} */
  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }

  /** @param {string} selector @returns {FakeElement[]} in document order */
  querySelectorAll(selector) {
    const test = compile(selector);
    /** @type {FakeElement[]} */
    const found = [];
    const walk = (/** @type {FakeElement} */ element) => {
      for (const child of element.children) {
        if (test(child)) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }

  /** @param {string} selector @returns {FakeElement | null} */
  closest(selector) {
    const test = compile(selector);
    for (let element = /** @type {FakeElement | null} */ (this); element; element = element.parentElement) if (test(element)) return element;
    return null;
  }

  /** @param {string} selector */
  matches(selector) {
    return compile(selector)(this);
  }
}

export class FakeDocument {
  constructor() {
    /** @type {FakeElement | null} */
    this.activeElement = null;
    /** @type {Mutation[]} */
    this.mutations = [];
    this.logging = true;
    this.body = new FakeElement(this, "body");
  }

  /** @param {string} tag */
  createElement(tag) {
    return new FakeElement(this, tag);
  }

  /** @param {string} _namespace @param {string} tag */
  createElementNS(_namespace, tag) {
    return new FakeElement(this, tag);
  }

  /** @param {Mutation} mutation */
  log(mutation) {
    // Like a MutationObserver on the document: changes to detached elements are not seen.
    if (this.logging && mutation.target.isConnected) this.mutations.push(mutation);
  }

  /** The changes logged since the last call, as "type name on #id or .class" strings. */
  takeMutations() {
    const taken = this.mutations.map(({ type, target, name }) => `${type}${name ? ` ${name}` : ""} on ${describe(target)}`);
    this.mutations = [];
    return taken;
  }
}

/** @param {FakeElement} element */
export function describe(element) {
  return element.id ? `#${element.id}` : `${element.tagName.toLowerCase()}.${(element.getAttribute("class") ?? "").split(" ").join(".")}`;
}

/** @param {string} key camelCase @returns {string} data-kebab-case */
function dataName(key) {
  return `data-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** @param {string} selector one compound selector: tag, #id, .class, [attr], [attr=value] @returns {(e: FakeElement) => boolean} */
function compile(selector) {
  if (selector === "*") return () => true;
  const parts = selector.match(/^[a-z]+|#[\w-]+|\.[\w-]+|\[[\w-]+(?:=["']?[^\]"']*["']?)?\]/gi) ?? [];
  if (parts.join("") !== selector) throw new Error(`fake_dom: unsupported selector ${selector}`);
  const tests = parts.map((part) => {
    if (part.startsWith(".")) return (/** @type {FakeElement} */ e) => e.classList.contains(part.slice(1));
    if (part.startsWith("#")) return (/** @type {FakeElement} */ e) => e.id === part.slice(1);
    if (part.startsWith("[")) {
      const [, name, value] = /** @type {RegExpMatchArray} */ (part.match(/^\[([\w-]+)(?:=["']?([^\]"']*)["']?)?\]$/));
      return (/** @type {FakeElement} */ e) => (value === undefined ? e.hasAttribute(name) : e.getAttribute(name) === value);
    }
    return (/** @type {FakeElement} */ e) => e.tagName === part.toUpperCase();
  });
  return (element) => tests.every((t) => t(element));
}

/**
 * An IntersectionObserver the test drives: `show(element)` says it came within the observer's
 * margin of the screen, `hide(element)` that it left it. `FakeIntersectionObserver.all` lists
 * them in the order made, with their options.
 */
export class FakeIntersectionObserver {
  /** @type {FakeIntersectionObserver[]} */
  static all = [];
  /** @param {(entries: {target: any, isIntersecting: boolean}[]) => void} callback @param {{rootMargin?: string}} [options] */
  constructor(callback, options = {}) {
    this.callback = callback;
    this.options = options;
    this.observed = new Set();
    FakeIntersectionObserver.all.push(this);
  }
  /** @param {any} element */
  observe(element) { this.observed.add(element); }
  /** @param {any} element */
  unobserve(element) { this.observed.delete(element); }
  /** @param {any[]} elements */
  show(...elements) {
    this.callback(elements.filter((e) => this.observed.has(e)).map((target) => ({ target, isIntersecting: true })));
  }
  /** @param {any[]} elements */
  hide(...elements) {
    this.callback(elements.filter((e) => this.observed.has(e)).map((target) => ({ target, isIntersecting: false })));
  }
}
