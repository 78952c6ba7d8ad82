/**
 * Stack: a vertical list whose items are placed with `transform: translateY()` inside a container of
 * explicit height, instead of flowing one under the other.
 *
 * Why: on a live board rows come and go (a match kicks off, another ends, a league appears) and grow (a
 * scorer line, open events). In normal flow every such change pushes the rows below it, which the reader
 * sees as the page jumping (and browsers count as layout shift). Placed by transform, a row that has to
 * move slides to its new place (a transition), and nothing is pushed: the browser's layout of every item
 * stays where it was (top: 0 of the container). The DOM order is kept equal to the order on screen, so the
 * keyboard and screen readers meet the rows in the order they are shown.
 *
 * Heights are measured (offsetHeight) and kept current by a ResizeObserver, which runs after layout and
 * before paint: a row that grows moves the rows below it within the same frame, never overlapping them.
 */

/** One observer for every stack on the page: it relays each resized item to its stack. */
const stacks = new WeakMap()
const observer = typeof window.ResizeObserver === 'undefined'
  ? undefined
  : new window.ResizeObserver((entries) => {
    /** @type {Set<Stack>} */
    const due = new Set()
    for (const entry of entries) {
      const stack = stacks.get(entry.target)
      if (stack !== undefined) due.add(stack)
    }
    for (const stack of due) stack.layout()
  })

/**
 * Moves `item` before `ref` in `parent`, keeping focus inside it: `moveBefore` where the browser has it
 * (the element is moved, not removed and inserted), else insertBefore and focus given back.
 * @param {Element} parent @param {Element} item @param {Element | null} ref
 */
function move (parent, item, ref) {
  const p = /** @type {any} */ (parent)
  if (typeof p.moveBefore === 'function' && item.parentNode === parent) {
    try { p.moveBefore(item, ref); return } catch { /* not movable here (another document): insert */ }
  }
  const active = document.activeElement
  const focused = active instanceof HTMLElement && item.contains(active) ? active : null
  parent.insertBefore(item, ref)
  if (focused !== null && document.activeElement !== focused) focused.focus({ preventScroll: true })
}

export class Stack {
  /**
   * @param {HTMLElement} el the container; its children are the stack's items
   * @param {object} [opts]
   * @param {number} [opts.gap] pixels between two items @default 0
   */
  constructor (el, opts = {}) {
    this.el = el
    this.gap = opts.gap ?? 0
    /** @type {HTMLElement[]} */ this.items = []
    el.classList.add('tl-stack')
  }

  /**
   * Makes the stack's items exactly `items`, in this order: new ones are placed at once (no slide), the
   * others slide to their new place, items no longer listed are removed.
   * @param {HTMLElement[]} items
   */
  set (items) {
    const keep = new Set(items)
    for (const item of this.items) {
      if (keep.has(item)) continue
      observer?.unobserve(item)
      stacks.delete(item)
      if (item.parentNode === this.el) item.remove()
    }
    items.forEach((item, i) => {
      if (this.el.children[i] === item) return
      if (item.parentNode !== this.el) {
        item.classList.add('tl-placing')
        this.el.insertBefore(item, this.el.children[i] ?? null)
        stacks.set(item, this)
        observer?.observe(item)
      } else {
        move(this.el, item, this.el.children[i] ?? null)
      }
    })
    while (this.el.children.length > items.length) this.el.lastElementChild?.remove()
    this.items = items
    this.layout()
  }

  /** @returns {Stack | undefined} the stack one of whose items holds this one */
  outer () {
    for (let el = this.el.parentElement; el !== null; el = el.parentElement) {
      const stack = stacks.get(el)
      if (stack !== undefined) return stack
    }
    return undefined
  }

  /** Places every item under the one before it and sizes the container to hold them all. */
  layout () {
    // Every height first, then every write: one layout pass, not one per item.
    const heights = this.items.map((item) => item.offsetHeight)
    let y = 0
    this.items.forEach((item, i) => {
      const t = `translateY(${y}px)`
      if (item.style.transform !== t) item.style.transform = t
      y += (heights[i] ?? 0) + this.gap
    })
    const height = `${Math.max(0, y - (this.items.length > 0 ? this.gap : 0))}px`
    if (this.el.style.height !== height) {
      this.el.style.height = height
      // Grown or shrunk, this stack moves the items after it in the stack that holds it (a league's rows in
      // the board's leagues): they are placed now, in this frame. Left to the ResizeObserver, they would
      // move a frame later, as it delivers a shallower element's resize in the next frame only.
      this.outer()?.layout()
    }
    const placing = this.items.filter((item) => item.classList.contains('tl-placing'))
    // A new item takes its first place without sliding; from the next frame on, it slides like the rest.
    if (placing.length > 0) window.requestAnimationFrame(() => { for (const item of placing) item.classList.remove('tl-placing') })
  }
}
