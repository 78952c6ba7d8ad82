/**
 * The event icons rows and event lists draw: small inline SVGs in the text's size, coloured by the theme
 * (--tl-* custom properties through card.css), so they are crisp at any zoom and need no image request.
 * Each is decorative (aria-hidden) unless given a label: the words beside it say what it is.
 */

const SVG = 'http://www.w3.org/2000/svg'

/** Shapes by icon name, in a 16×16 box: [tag, attributes] pairs. */
const SHAPES = {
  goal: [['circle', { cx: 8, cy: 8, r: 6.5, class: 'i-ball' }], ['path', { d: 'M8 5.2l2.6 1.9-1 3.1H6.4l-1-3.1z', class: 'i-patch' }]],
  'own-goal': [['circle', { cx: 8, cy: 8, r: 6.5, class: 'i-ball i-own' }], ['path', { d: 'M8 5.2l2.6 1.9-1 3.1H6.4l-1-3.1z', class: 'i-patch i-own' }]],
  missed: [['circle', { cx: 8, cy: 8, r: 6.5, class: 'i-ball i-miss' }], ['path', { d: 'M3.5 12.5l9-9', class: 'i-cross' }]],
  yellow: [['rect', { x: 4, y: 2, width: 8, height: 12, rx: 1.5, class: 'i-yellow' }]],
  red: [['rect', { x: 4, y: 2, width: 8, height: 12, rx: 1.5, class: 'i-red' }]],
  'second-yellow': [['rect', { x: 2.5, y: 1.5, width: 7.5, height: 11, rx: 1.5, class: 'i-yellow' }], ['rect', { x: 6, y: 3.5, width: 7.5, height: 11, rx: 1.5, class: 'i-red' }]],
  sub: [['path', { d: 'M5 13V4.5M1.8 7.5L5 4.2l3.2 3.3', class: 'i-in' }], ['path', { d: 'M11 3v8.5M7.8 8.5l3.2 3.3 3.2-3.3', class: 'i-out' }]],
  off: [['path', { d: 'M8 3v9M4.5 8.7L8 12.2l3.5-3.5', class: 'i-out' }]],
  star: [['path', { d: 'M8 1.6l1.95 4.1 4.45.55-3.3 3.05.85 4.45L8 11.55 4.05 13.75l.85-4.45L1.6 6.25l4.45-.55z', class: 'i-star' }]],
  var: [['rect', { x: 1.5, y: 2.5, width: 13, height: 9, rx: 1.5, class: 'i-var' }], ['path', { d: 'M5.5 14h5M8 11.5V14', class: 'i-var' }], ['path', { d: 'M6.5 5v4l3.3-2z', class: 'i-var-play' }]]
}

/**
 * An icon element.
 * @param {string} name one of the shapes above (an unknown name draws nothing)
 * @param {string} [label] its spoken name; without it the icon is hidden from screen readers
 * @returns {SVGSVGElement}
 */
export function icon (name, label) {
  const svg = document.createElementNS(SVG, 'svg')
  svg.setAttribute('viewBox', '0 0 16 16')
  svg.setAttribute('class', `tl-icon tl-icon-${name}`)
  svg.setAttribute('focusable', 'false')
  if (label === undefined) svg.setAttribute('aria-hidden', 'true')
  else { svg.setAttribute('role', 'img'); svg.setAttribute('aria-label', label) }
  for (const [tag, attrs] of /** @type {Array<[string, Record<string, string | number>]>} */ (SHAPES[/** @type {keyof typeof SHAPES} */ (name)] ?? [])) {
    const el = document.createElementNS(SVG, tag)
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v))
    svg.append(el)
  }
  return svg
}
