import neostandard from 'neostandard'

export default [
  ...neostandard({ ts: true, ignores: ['scratch/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test-results/**'] })
]
