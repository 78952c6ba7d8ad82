/** The embedded provider's dataset: `generateDataset()` and the record types. */
export { fixtureBase, generateDataset, startOfTodayUtc, type GenerateOptions } from './generate.ts'
export { indexDataset } from './indexes.ts'
export type * from './types.ts'
