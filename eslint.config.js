import neostandard from 'neostandard'

/** Browser globals of the static pages and the widget (src/ui/public), which run in browsers, not Node. */
const browser = Object.fromEntries(['window', 'document', 'location', 'navigator', 'WebSocket', 'HTMLElement', 'Node']
  .map((name) => [name, 'readonly']))

export default [
  ...neostandard({ ts: true, ignores: ['scratch/**', '**/dist/**', 'node_modules/**', 'coverage/**', 'test-results/**'] }),
  { files: ['src/ui/public/**/*.js'], languageOptions: { globals: browser } }
]
