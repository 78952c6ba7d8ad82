// The page's `/lib/clock.js` is the client library's clock module bundled for browsers at run time
// (src/http/client-bundle.ts); this declaration types it as that module's source, for `npm run typecheck`.
export * from '../../../../packages/client/src/clock.ts'
