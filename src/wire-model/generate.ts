/**
 * What is generated from the wire model and committed: the two protocol documents (docs/asyncapi.json,
 * docs/openapi.json) and the wire model's type declarations (packages/core/src/wire.ts). `npm run
 * generate` writes them; a test checks that the committed files are what the model generates, so they are
 * never edited by hand and never out of date.
 */
import { compile } from 'json-schema-to-typescript'
import { asyncApiDocument } from './asyncapi.ts'
import { componentSchemas, type JsonSchema } from './json-schema.ts'
import { ODDS_KINDS } from './odds.ts'
import { STANDINGS_KINDS } from './standings.ts'
import {
  AuthFrameSchema, AuthorizedFrameSchema, CHANGE_KINDS, ChangeFrameSchema, ChangeSchema, DeltaChangeSchema, ErrorFrameSchema, HelloFrameSchema, OddsChangeSchema, OddsFrameSchema, PingFrameSchema, PongFrameSchema, ReplayFrameSchema,
  SnapshotFrameSchema, StandingsFrameSchema, SubscribedFrameSchema, SubscribeFrameSchema, UnsubscribedFrameSchema, UnsubscribeFrameSchema
} from './model.ts'
import { openApiDocument } from './openapi.ts'

/** Paths from the repository's root. */
const GENERATED = {
  asyncapi: 'docs/asyncapi.json',
  openapi: 'docs/openapi.json',
  clientTypes: 'packages/core/src/wire.ts'
} as const

/** What the client declares: the frames both ways, and through them the fixture, the changes and the errors. */
const CLIENT_ROOTS = [
  HelloFrameSchema, SubscribedFrameSchema, UnsubscribedFrameSchema, SnapshotFrameSchema, ReplayFrameSchema, ChangeFrameSchema, PongFrameSchema,
  ErrorFrameSchema, SubscribeFrameSchema, UnsubscribeFrameSchema, PingFrameSchema, ChangeSchema, DeltaChangeSchema, OddsFrameSchema, OddsChangeSchema,
  StandingsFrameSchema, AuthFrameSchema, AuthorizedFrameSchema
]

const HEADER = [
  '/**',
  ' * The wire model of the touchline live protocol: the live fixture, the typed changes, the frames both ways.',
  ' * Generated from the gateway\'s src/wire-model/model.ts by `npm run generate`: do not edit by hand.',
  ' */',
  ''
].join('\n')

/** The client's declarations: one exported type per component schema, named by its id. */
async function clientDeclarations (): Promise<string> {
  // Draft 7 wraps a reference that has a description in `allOf`, which the generator reads as "this type,
  // documented here" rather than as a new type.
  const schemas = componentSchemas('draft-7', CLIENT_ROOTS)
  // json-schema-to-typescript resolves `#/$defs/<name>` within one document: the components go there.
  const text = JSON.stringify({ title: 'Wire', type: 'object', $defs: schemas }).replaceAll('"#/components/schemas/', '"#/$defs/')
  const ts = await compile(JSON.parse(text) as JsonSchema, 'Wire', {
    bannerComment: '',
    additionalProperties: false,
    unreachableDefinitions: true,
    ignoreMinAndMaxItems: true,
    style: { semi: false, singleQuote: true, printWidth: 120 }
  })
  return HEADER + tidyDeclarations(ts) + subscribedKinds()
}

/** The kinds a subscribe may name, as a value: the client checks a subscribe before sending it. */
function subscribedKinds (): string {
  const kinds = [...CHANGE_KINDS, ...ODDS_KINDS, ...STANDINGS_KINDS].map((k) => `  '${k}'`).join(',\n')
  return `\n/** Every kind a subscribe may name (\`SubscribedKind\`): the client refuses any other before sending. */\nexport const SUBSCRIBED_KINDS: readonly SubscribedKind[] = [\n${kinds}\n]\n`
}

/** Drops the generator's placeholder for the document itself and its "referenced by" notes, and squeezes blank lines. */
function tidyDeclarations (ts: string): string {
  return ts
    .replace(/export interface Wire \{[^}]*\}\n?/, '')
    .replace(/ \*\n \* This interface was referenced by `Wire`'s JSON-Schema\n \* via the `definition` "[^"]+"\.\n/g, '')
    .replace(/\/\*\*\n \* This interface was referenced by `Wire`'s JSON-Schema\n \* via the `definition` "[^"]+"\.\n \*\/\n/g, '')
    .replace(/\n \*\n \*\//g, '\n */')
    .replace(/\n{3,}/g, '\n\n')
    .trim() + '\n'
}

/** Every generated file's path and content. */
export async function generatedFiles (): Promise<Record<string, string>> {
  return {
    [GENERATED.asyncapi]: JSON.stringify(asyncApiDocument(), null, 2) + '\n',
    [GENERATED.openapi]: JSON.stringify(openApiDocument(), null, 2) + '\n',
    [GENERATED.clientTypes]: await clientDeclarations()
  }
}
