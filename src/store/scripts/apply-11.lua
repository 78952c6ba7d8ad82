--[[
  Applies one fixture change set atomically: version check, snapshot, live index, schedule, log append,
  notification.
  Shaped like centrifuge's broker_history_add_stream.lua (epoch and offset in a meta hash, XADD MAXLEN,
  PUBLISH in the same script), so state and log can never disagree.

  Input:
    KEYS[1] meta hash         fields: epoch, offset
    KEYS[2] log stream        entry id `<offset>-0`, fields f (fixture id), l (league id), r (record JSON)
    KEYS[3] versions hash     fixture id -> version
    KEYS[4] fixtures hash     fixture id -> LiveFixture JSON
    KEYS[5] live hash         fixture id -> league id, for fixtures in the live index
    KEYS[6] live set of the fixture's league
    KEYS[7] retired zset      fixture id -> ms from which it may be forgotten (out of the live index)
    KEYS[8] lease key         of the writer's leadership, with ARGV[14]
    KEYS[9] odds versions hash  fixture id -> version of its odds image (forgotten with the fixture)
    KEYS[10] odds hash          fixture id -> FixtureOdds JSON (forgotten with the fixture)
    KEYS[11] schedule zset      fixture id -> kick-off, ms (every stored fixture that has one)

    ARGV[1]  fixture id
    ARGV[2]  league id
    ARGV[3]  expected version (0 = not stored yet)
    ARGV[4]  '1' to put the fixture in the live index, '0' to take it out
    ARGV[5]  fixture JSON, its version already set to expected + 1
    ARGV[6]  record head: the record JSON between `{"cursor":"<cursor>",` and the fixture JSON
             (record JSON = '{"cursor":"<cursor>",' .. ARGV[6] .. ARGV[5] .. '}', as record.ts builds it)
    ARGV[7]  epoch to create when the log has none
    ARGV[8]  maximum log length (exact MAXLEN, see redis-store.ts)
    ARGV[9]  channel to PUBLISH the new cursor on
    ARGV[10] prefix of the per-league live sets, to reach the previous league's set if the league changed
    ARGV[11] time of the change, ms: fixtures whose retired score is below it are forgotten (state and version)
    ARGV[12] when this fixture may be forgotten once out of the live index, ms (store/types.ts forgetAt)
    ARGV[13] how many to forget at most in this call
    ARGV[14] holder id the lease KEYS[8] must hold for the write to be made; '' for no such check
    ARGV[15] epoch of the highest offset the writer saw acknowledged; '' for none
    ARGV[16] that offset: a log of the same epoch whose offset is below it lost acknowledged writes
    ARGV[17] the fixture's kick-off, ms; '' when it has none

  Output:
    {1, epoch, offset}        applied; the record's cursor is `<epoch>:<offset>`
    {0, current version}      rejected, nothing written
    {2}                       fenced: the lease is not the writer's (any more), nothing written
]]
--!include lib/log.lua
if fenced(KEYS[8], ARGV[14]) then
  return {2}
end
local id = ARGV[1]
local current = tonumber(redis.call('HGET', KEYS[3], id) or '0')
if current ~= tonumber(ARGV[3]) then
  return {0, current}
end

redis.call('HSET', KEYS[3], id, current + 1)
redis.call('HSET', KEYS[4], id, ARGV[5])

-- A fixture moved to another league (rare upstream corrections) must leave the old league's set.
local previousLeague = redis.call('HGET', KEYS[5], id)
if previousLeague and previousLeague ~= ARGV[2] then
  redis.call('SREM', ARGV[10] .. previousLeague, id)
end
if ARGV[4] == '1' then
  redis.call('HSET', KEYS[5], id, ARGV[2])
  redis.call('SADD', KEYS[6], id)
  redis.call('ZREM', KEYS[7], id)
else
  redis.call('HDEL', KEYS[5], id)
  redis.call('SREM', KEYS[6], id)
  redis.call('ZADD', KEYS[7], ARGV[12], id)
end
if ARGV[17] ~= '' then
  redis.call('ZADD', KEYS[11], ARGV[17], id)
else
  redis.call('ZREM', KEYS[11], id)
end

-- Forget a few fixtures that left the live index long ago (and whose day is past), so the state does not grow forever.
local old = redis.call('ZRANGEBYSCORE', KEYS[7], '-inf', '(' .. ARGV[11], 'LIMIT', 0, tonumber(ARGV[13]))
for _, gone in ipairs(old) do
  redis.call('HDEL', KEYS[3], gone)
  redis.call('HDEL', KEYS[4], gone)
  redis.call('HDEL', KEYS[9], gone)
  redis.call('HDEL', KEYS[10], gone)
  redis.call('ZREM', KEYS[7], gone)
  redis.call('ZREM', KEYS[11], gone)
end

local epoch = openEpoch(KEYS[1], KEYS[2], ARGV[7], ARGV[15], ARGV[16])
-- %d, not tostring: Lua prints large numbers as 1e+14.
local offset = string.format('%d', redis.call('HINCRBY', KEYS[1], 'offset', 1))
local cursor = epoch .. ':' .. offset
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[8], offset .. '-0',
  'f', id, 'l', ARGV[2], 'r', '{"cursor":"' .. cursor .. '",' .. ARGV[6] .. ARGV[5] .. '}')
redis.call('PUBLISH', ARGV[9], cursor)
return {1, epoch, tonumber(offset)}
