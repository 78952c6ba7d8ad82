/** What the rest of touchline needs from the embedded provider's simulator. */
export { LIVESCORES_WINDOW_SECONDS } from './engine.ts'
