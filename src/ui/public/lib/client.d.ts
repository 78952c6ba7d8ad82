// The page's `/lib/client.js` is the client library (packages/client) bundled for browsers at run time
// (src/http/client-bundle.ts); this declaration types it as that package's source, for `npm run typecheck`.
export * from '../../../../packages/client/src/index.ts'
