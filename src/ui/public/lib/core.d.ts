// The page's `/lib/core.js` is the core package (packages/core: the goal and minute rules, the clock, the wire
// types) bundled for browsers at build time (src/ui/bundle.ts); this declaration types it as that
// package's source, for `npm run typecheck`.
export * from '../../../../packages/core/src/index.ts'
