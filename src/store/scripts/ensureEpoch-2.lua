--[[
  Returns the log's epoch and head offset, creating the epoch if the log has none yet, so a cursor handed
  out before the first write (e.g. in a hello frame) stays valid once writes begin.

  Input:
    KEYS[1] meta hash         fields: epoch, offset
    KEYS[2] log stream
    ARGV[1] epoch to create when there is none
    ARGV[2] epoch of the highest offset the caller saw acknowledged; '' for none
    ARGV[3] that offset: a log of the same epoch whose offset is below it lost acknowledged writes, and
            a new epoch begins (see apply-10.lua)

  Output:
    {epoch, head offset}      head is 0 when nothing was appended in this epoch
]]
-- The writer saw this epoch's log reach ARGV[2]'s offset ARGV[3] on a primary, and this one stands below it:
-- a failover to a replica that lacked acknowledged writes. Offsets below would be handed out again with
-- other records under cursors readers already hold: the log is lost, a new epoch begins (next lines).
local known = redis.call('HMGET', KEYS[1], 'epoch', 'offset')
if ARGV[2] ~= '' and known[1] == ARGV[2] and tonumber(known[2] or '0') < tonumber(ARGV[3]) then
  redis.call('DEL', KEYS[1])
end
if redis.call('HSETNX', KEYS[1], 'epoch', ARGV[1]) == 1 then
  -- Same rule as apply: a new epoch never inherits entries of a lost one.
  redis.call('DEL', KEYS[2])
end
local meta = redis.call('HMGET', KEYS[1], 'epoch', 'offset')
return {meta[1], tonumber(meta[2] or '0')}
