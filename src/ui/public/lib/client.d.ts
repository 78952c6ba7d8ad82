// The page's `/lib/client.js` is the client library (packages/client) bundled for browsers at build time
// (src/ui/bundle.ts); this declaration types it as that package's source, for `npm run typecheck`.
export * from '../../../../packages/client/src/index.ts'
