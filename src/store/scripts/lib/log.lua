-- The log's guards, shared by the scripts that write it (apply, applyImage) or hand out its head
-- (ensureEpoch): each includes this file with a line `--!include lib/log.lua` (src/util/redis-scripts.ts).

-- Whether a write is fenced: the writer names the holder the lease must have (`holder` ~= '') and the lease is
-- not its own (any more). A leader that stalled past its lease (GC pause, SIGSTOP, a VM paused) must not write
-- over its successor.
local function fenced (leaseKey, holder)
  return holder ~= '' and redis.call('GET', leaseKey) ~= holder
end

-- The log's epoch, opened when the log has none.
-- The writer saw `seenEpoch`'s log reach `seenOffset` on a primary; a log of that epoch standing below it is a
-- failover to a replica that lacked acknowledged writes. Offsets below would be handed out again with other
-- records under cursors readers already hold: the log is lost, and a new epoch begins.
-- A missing epoch means the log was lost (flush, or eviction of the meta hash): a new epoch begins and any
-- stream left behind is dropped, so offsets restart at 1 without colliding with old entry ids.
local function openEpoch (metaKey, streamKey, newEpoch, seenEpoch, seenOffset)
  local known = redis.call('HMGET', metaKey, 'epoch', 'offset')
  if seenEpoch ~= '' and known[1] == seenEpoch and tonumber(known[2] or '0') < tonumber(seenOffset) then
    redis.call('DEL', metaKey)
  end
  if redis.call('HSETNX', metaKey, 'epoch', newEpoch) == 1 then
    redis.call('DEL', streamKey)
  end
  return redis.call('HGET', metaKey, 'epoch')
end
