--[[
  Returns the log's epoch and head offset, creating the epoch if the log has none yet, so a cursor handed
  out before the first write (e.g. in a hello frame) stays valid once writes begin.

  Input:
    KEYS[1] meta hash         fields: epoch, offset
    KEYS[2] log stream
    ARGV[1] epoch to create when there is none
    ARGV[2] epoch of the highest offset the caller saw acknowledged; '' for none
    ARGV[3] that offset: a log of the same epoch whose offset is below it lost acknowledged writes, and
            a new epoch begins (lib/log.lua)

  Output:
    {epoch, head offset}      head is 0 when nothing was appended in this epoch
]]
--!include lib/log.lua
openEpoch(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3])
local meta = redis.call('HMGET', KEYS[1], 'epoch', 'offset')
return {meta[1], tonumber(meta[2] or '0')}
