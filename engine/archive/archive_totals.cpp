#include "engine/archive/archive_totals.h"

namespace isochron {

// Item streams have one row in channel_totals (channel 0, samples 0, bytes of JSON text) and no
// stretches (their items may overlap; coverage() reads their rows, which hold no samples).
// A delete recomputes `start` or `stop` only when it removes the piece that set it: `start` from the
// index (stream, channel, start), `stop` by a look at the channel's rows, which a prune (oldest first)
// only needs when it empties the channel.
const char* const kArchiveTotalsSchema = R"sql(
CREATE TABLE IF NOT EXISTS channel_totals (
  stream INTEGER NOT NULL REFERENCES streams(id),
  channel INTEGER NOT NULL,
  start INTEGER NOT NULL,
  stop INTEGER NOT NULL,
  pieces INTEGER NOT NULL,
  samples INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  PRIMARY KEY (stream, channel)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stretches (
  stream INTEGER NOT NULL REFERENCES streams(id),
  channel INTEGER NOT NULL,
  start INTEGER NOT NULL,
  stop INTEGER NOT NULL,
  PRIMARY KEY (stream, channel, stop)
) WITHOUT ROWID;

CREATE TRIGGER IF NOT EXISTS segments_add_to_totals AFTER INSERT ON segments BEGIN
  INSERT OR IGNORE INTO channel_totals VALUES (NEW.stream, NEW.channel, NEW.start, NEW.start + NEW.length, 0, 0, 0);
  UPDATE channel_totals SET start = min(start, NEW.start), stop = max(stop, NEW.start + NEW.length), pieces = pieces + 1,
                            samples = samples + NEW.length, bytes = bytes + length(NEW.samples)
   WHERE stream = NEW.stream AND channel = NEW.channel;
END;
CREATE TRIGGER IF NOT EXISTS segments_take_from_totals AFTER DELETE ON segments BEGIN
  UPDATE channel_totals SET pieces = pieces - 1, samples = samples - OLD.length, bytes = bytes - length(OLD.samples),
    start = CASE WHEN OLD.start > start THEN start
            ELSE coalesce((SELECT min(s.start) FROM segments s WHERE s.stream = OLD.stream AND s.channel = OLD.channel), start) END,
    stop = CASE WHEN OLD.start + OLD.length < stop THEN stop
           ELSE coalesce((SELECT max(s.start + s.length) FROM segments s WHERE s.stream = OLD.stream AND s.channel = OLD.channel), stop) END
   WHERE stream = OLD.stream AND channel = OLD.channel;
  DELETE FROM channel_totals WHERE stream = OLD.stream AND channel = OLD.channel AND pieces = 0;
END;

-- A new piece merges with every stretch it touches or overlaps into one: the merged stretch goes in
-- (replacing the one that already ends where it ends), then the others touched go.
CREATE TRIGGER IF NOT EXISTS segments_add_to_stretches AFTER INSERT ON segments WHEN NEW.length > 0 BEGIN
  INSERT OR REPLACE INTO stretches(stream, channel, start, stop)
    SELECT NEW.stream, NEW.channel, min(NEW.start, coalesce(min(start), NEW.start)), max(NEW.start + NEW.length, coalesce(max(stop), NEW.start + NEW.length))
      FROM stretches WHERE stream = NEW.stream AND channel = NEW.channel AND stop >= NEW.start AND start <= NEW.start + NEW.length;
  DELETE FROM stretches WHERE stream = NEW.stream AND channel = NEW.channel AND stop >= NEW.start AND start <= NEW.start + NEW.length
                          AND NOT (start <= NEW.start AND stop >= NEW.start + NEW.length);
END;
-- A deleted piece splits the stretch holding it into the part before it (a new row) and the part
-- after it (the row itself, whose key is its stop), and a part left empty goes.
CREATE TRIGGER IF NOT EXISTS segments_take_from_stretches AFTER DELETE ON segments WHEN OLD.length > 0 BEGIN
  INSERT OR REPLACE INTO stretches(stream, channel, start, stop)
    SELECT stream, channel, start, OLD.start FROM stretches
     WHERE stream = OLD.stream AND channel = OLD.channel AND stop >= OLD.start + OLD.length AND start < OLD.start
     ORDER BY stop LIMIT 1;
  UPDATE stretches SET start = OLD.start + OLD.length
   WHERE stream = OLD.stream AND channel = OLD.channel AND start <= OLD.start
     AND stop = (SELECT min(h.stop) FROM stretches h WHERE h.stream = OLD.stream AND h.channel = OLD.channel AND h.stop >= OLD.start + OLD.length);
  DELETE FROM stretches WHERE stream = OLD.stream AND channel = OLD.channel AND stop = OLD.start + OLD.length AND start >= stop;
END;

CREATE TRIGGER IF NOT EXISTS events_add_to_totals AFTER INSERT ON events BEGIN
  INSERT OR IGNORE INTO channel_totals VALUES (NEW.stream, 0, NEW.start, NEW.start + NEW.length, 0, 0, 0);
  UPDATE channel_totals SET start = min(start, NEW.start), stop = max(stop, NEW.start + NEW.length), pieces = pieces + 1,
                            bytes = bytes + length(CAST(NEW.item AS BLOB))
   WHERE stream = NEW.stream AND channel = 0;
END;
CREATE TRIGGER IF NOT EXISTS events_take_from_totals AFTER DELETE ON events BEGIN
  UPDATE channel_totals SET pieces = pieces - 1, bytes = bytes - length(CAST(OLD.item AS BLOB)),
    start = CASE WHEN OLD.start > start THEN start
            ELSE coalesce((SELECT min(e.start) FROM events e WHERE e.stream = OLD.stream), start) END,
    stop = CASE WHEN OLD.start + OLD.length < stop THEN stop
           ELSE coalesce((SELECT max(e.start + e.length) FROM events e WHERE e.stream = OLD.stream), stop) END
   WHERE stream = OLD.stream AND channel = 0;
  DELETE FROM channel_totals WHERE stream = OLD.stream AND channel = 0 AND pieces = 0;
END;
)sql";

// Stretches: in (start, rowid) order per channel, a piece opens a new stretch when it starts after
// every piece before it stops; the running count of openings numbers the stretches.
const char* const kArchiveTotalsFill = R"sql(
INSERT INTO channel_totals
  SELECT stream, channel, min(start), max(start + length), count(*), sum(length), sum(length(samples)) FROM segments GROUP BY stream, channel;
INSERT INTO channel_totals
  SELECT stream, 0, min(start), max(start + length), count(*), 0, sum(length(CAST(item AS BLOB))) FROM events GROUP BY stream;
INSERT INTO stretches(stream, channel, start, stop)
  SELECT stream, channel, min(start), max(stop) FROM (
    SELECT stream, channel, start, stop,
           sum(opens) OVER (PARTITION BY stream, channel ORDER BY start, piece ROWS UNBOUNDED PRECEDING) AS stretch
      FROM (SELECT stream, channel, start, start + length AS stop, rowid AS piece,
                   coalesce(start > max(start + length) OVER (PARTITION BY stream, channel ORDER BY start, rowid
                                                              ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 1) AS opens
              FROM segments WHERE length > 0))
  GROUP BY stream, channel, stretch;
)sql";

}  // namespace isochron
