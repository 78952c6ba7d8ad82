--[[
  Returns the log's epoch and head offset, creating the epoch if the log has none yet, so a cursor handed
  out before the first write (e.g. in a hello frame) stays valid once writes begin.

  Input:
    KEYS[1] meta hash         fields: epoch, offset
    KEYS[2] log stream
    ARGV[1] epoch to create when there is none

  Output:
    {epoch, head offset}      head is 0 when nothing was appended in this epoch
]]
if redis.call('HSETNX', KEYS[1], 'epoch', ARGV[1]) == 1 then
  -- Same rule as apply: a new epoch never inherits entries of a lost one.
  redis.call('DEL', KEYS[2])
end
local meta = redis.call('HMGET', KEYS[1], 'epoch', 'offset')
return {meta[1], tonumber(meta[2] or '0')}
