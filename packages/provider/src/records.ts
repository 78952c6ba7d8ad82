/**
 * The shape every provider module handles records in. The dataset's records are typed (dataset/types.ts),
 * but the HTTP layer reads them generically: by kind, by id, field by field.
 */
export type Rec = Record<string, unknown> & { id: number }
