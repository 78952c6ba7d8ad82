/**
 * The one loader of the gateway's Lua scripts. Each owner keeps its scripts as files beside it (a
 * `scripts/` folder), named `<name>-<numberOfKeys>.lua` and opening with an Input/Output header, and
 * registers them with `defineCommand`: ioredis then sends EVALSHA and falls back to EVAL when Redis
 * answers NOSCRIPT (after a restart or SCRIPT FLUSH), so no script is sent in full on every call. Each
 * owner types its commands by augmenting ioredis's RedisCommander.
 *
 * Lua a script shares with others (a store's lease and epoch guards) lives in a fragment under the scripts
 * folder, written into each script that has a line `--!include <path>`: one copy to read and change, and
 * each script is still one self-contained body for Redis.
 */
import { readFileSync } from 'node:fs'
import type { Redis } from 'ioredis'

interface ScriptSource { lua: string, numberOfKeys: number }

/** A script with each `--!include <path>` line replaced by that file of the scripts folder. */
function withIncludes (lua: string, dir: URL): string {
  return lua.replace(/^--!include (\S+)$/gm, (_, path: string) => readFileSync(new URL(path, dir), 'utf8').trimEnd())
}

/**
 * A function that defines the scripts on a connection (once per connection) and returns it. `dir` is the
 * scripts folder (a file URL ending in `/`); `scripts` maps each command name to its file name without
 * `.lua`. The files are read at the first call and kept: they never change at run time.
 */
export function scriptLoader (dir: URL, scripts: Readonly<Record<string, string>>): (redis: Redis) => Redis {
  let sources: Array<[string, ScriptSource]> | undefined
  const defined = new WeakSet<Redis>()
  return (redis) => {
    if (defined.has(redis)) return redis
    sources ??= Object.entries(scripts).map(([command, file]) => [command, {
      lua: withIncludes(readFileSync(new URL(`${file}.lua`, dir), 'utf8'), dir),
      numberOfKeys: Number(file.slice(file.lastIndexOf('-') + 1))
    }])
    for (const [command, def] of sources) redis.defineCommand(command, def)
    defined.add(redis)
    return redis
  }
}
