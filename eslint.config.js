import neostandard from 'neostandard'
import importX from 'eslint-plugin-import-x'

/** Browser globals of the static pages and the widget (src/ui/public), which run in browsers, not Node. */
const browser = Object.fromEntries(['window', 'document', 'location', 'navigator', 'WebSocket', 'HTMLElement', 'Node', 'history', 'localStorage', 'self']
  .map((name) => [name, 'readonly']))

/**
 * The layers of src, from the bottom (docs/architecture.md, "Source layout"). A module may import its own layer
 * (but see SIBLINGS) and the layers below it, never one above.
 */
const LAYERS = [
  ['src/config.ts', 'src/errors.ts', 'src/logger.ts', 'src/metrics.ts', 'src/wire-model', 'src/util'],
  ['src/diff', 'src/odds', 'src/budget', 'src/store', 'src/upstream', 'src/protocol', 'src/client-keys.ts', 'src/webhook-settings.ts', 'src/token-settings.ts', 'src/tokens.ts'],
  ['src/poller', 'src/fanout', 'src/passthrough', 'src/webhooks', 'src/webpush', 'src/record', 'src/status'],
  ['src/http'],
  ['src/app.ts', 'src/gateway.ts', 'src/engines.ts'],
  ['src/server.ts', 'src/cluster.ts', 'src/cli.ts', 'src/provider-command.ts', 'src/tail']
]
/** In layer 2 each folder is a feature of its own: what two of them share lives below them. */
const SIBLINGS = LAYERS[2]

const path = (p) => `./${p}`
const zone = (target, from, message) => ({ target: target.map(path), from: path(from), message })
const layerZones = LAYERS.flatMap((layer, i) => LAYERS.slice(i + 1).flat()
  .map((from) => zone(layer, from, `layer ${i} (${layer.join(', ')}) may not import a higher layer.`)))
const siblingZones = SIBLINGS.flatMap((target) => SIBLINGS.filter((from) => from !== target)
  .map((from) => zone([target], from, 'layer 2 features may not import each other: move what they share down a layer.')))
/**
 * The embedded provider is a package of its own (packages/provider) that only gateway.ts and the
 * `touchline provider` command start: nothing else in the gateway imports it.
 */
const STARTS_PROVIDER = ['src/gateway.ts', 'src/provider-command.ts']

export default [
  ...neostandard({ ts: true, ignores: ['scratch/**', '**/dist/**', 'node_modules/**', 'coverage/**', 'test-results/**'] }),
  { files: ['src/ui/public/**/*.js'], languageOptions: { globals: browser } },
  {
    files: ['src/**/*.ts', 'packages/*/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // Imports name the .ts file itself (allowImportingTsExtensions): the node resolver finds it as is.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] }
    },
    rules: {
      // Type-only imports are erased at run time and not followed (the rule's own choice).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones: [...layerZones, ...siblingZones] }]
    }
  },
  {
    files: ['src/**/*.ts'],
    ignores: STARTS_PROVIDER,
    rules: { 'no-restricted-imports': ['error', { paths: [{ name: '@touchline/provider', message: 'only gateway.ts and the provider command start the embedded provider.' }] }] }
  }
]
