--[[
  Applies one change set of an image atomically: version check of the image, the image, log append,
  notification. An image has a version of its own apart from any fixture's: a fixture's odds (keyed by the
  fixture), a league's table (keyed by the league). The same log as apply-11.lua (same meta hash, same stream,
  same channel), so these records and fixture records share one order and one cursor space.

  Input:
    KEYS[1] meta hash            fields: epoch, offset
    KEYS[2] log stream           entry id `<offset>-0`, fields f (fixture id), l (league id), r (record JSON)
    KEYS[3] versions hash        image id -> version of the image
    KEYS[4] images hash          image id -> image JSON (FixtureOdds, LeagueStandings)
    KEYS[5] lease key            of the writer's leadership, with ARGV[9]

    ARGV[1] image id             (the fixture's id for odds, the league's for a table)
    ARGV[2] league id
    ARGV[3] expected image version (0 = none stored yet)
    ARGV[4] image JSON, its version already set to expected + 1
    ARGV[5] record head: the record JSON between `{"cursor":"<cursor>",` and the image JSON
            (record JSON = '{"cursor":"<cursor>",' .. ARGV[5] .. ARGV[4] .. '}', as record.ts builds it)
    ARGV[6] epoch to create when the log has none
    ARGV[7] maximum log length (exact MAXLEN)
    ARGV[8] channel to PUBLISH the new cursor on
    ARGV[9] holder id the lease KEYS[5] must hold for the write to be made; '' for no such check
    ARGV[10] epoch of the highest offset the writer saw acknowledged; '' for none
    ARGV[11] that offset: a log of the same epoch whose offset is below it lost acknowledged writes
    ARGV[12] the fixture id the log entry is filed under (`f`): the image's fixture, or 0 for a league's table

  Output:
    {1, epoch, offset}        applied; the record's cursor is `<epoch>:<offset>`
    {0, current version}      rejected, nothing written
    {2}                       fenced: the lease is not the writer's (any more), nothing written
]]
--!include lib/log.lua
if fenced(KEYS[5], ARGV[9]) then
  return {2}
end
local id = ARGV[1]
local current = tonumber(redis.call('HGET', KEYS[3], id) or '0')
if current ~= tonumber(ARGV[3]) then
  return {0, current}
end
redis.call('HSET', KEYS[3], id, current + 1)
redis.call('HSET', KEYS[4], id, ARGV[4])

local epoch = openEpoch(KEYS[1], KEYS[2], ARGV[6], ARGV[10], ARGV[11])
local offset = string.format('%d', redis.call('HINCRBY', KEYS[1], 'offset', 1))
local cursor = epoch .. ':' .. offset
redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[7], offset .. '-0',
  'f', ARGV[12], 'l', ARGV[2], 'r', '{"cursor":"' .. cursor .. '",' .. ARGV[5] .. ARGV[4] .. '}')
redis.call('PUBLISH', ARGV[8], cursor)
return {1, epoch, tonumber(offset)}
