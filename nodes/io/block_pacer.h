// BlockPacer: the block schedule shared by the replaying sources (io.audio_file_source,
// generators.signal_generator), so both cut, pace, drop and promise progress the same way.
//
// A source's stream is numbered by position = sample index, from 0 to totalLength. It is cut into
// blocks on a fixed grid: `blockLength` samples from 0 and, when the stream repeats a cycle (a looped
// file), again from every cycle start, so a block never spans two cycles. Each produce() call is one
// round:
//  - unpaced (pace 0): exactly one block, stamped with the wall time it is handed out;
//  - paced (pace > 0): every block that is due, at most the engine's budget, block [s, e) being due at
//        anchorWall + (e - anchorPosition) / (rate * pace)
//    and stamped with that time. The anchor is the first paced round (re-set continuously when the
//    pace changes). When the next block is more than max_lag late, the round first drops every
//    overdue block: the stream jumps (a gap) and the source warns with the count beginRound returns.
//    A paced round hands out at most roundSpanSeconds of stream (one block at least), and ends early
//    once its next block is more than max_lag late by the wall clock read between blocks. Otherwise
//    a round handing out a backlog holds it all for processing before the next round can drop
//    anything: a depth-first scheduler processes each block as it is emitted (the round ran on for
//    many times max_lag), a queueing one (fifo) after the round (the queue held seconds of items).
//    So latency under overload stays near max_lag whatever the scheduler (it ran to ~5x max_lag).
// A block also says whether a progress promise is due after it: once progressInterval samples went
// out since the last promise, and, paced, at the last block of a round once kTimedProgressSeconds of
// stream went out since the last promise, so operators waiting on progress behind a slow source
// (10 items/s) release its items as they come rather than every progressInterval items.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/operators/parameter.h"
#include "engine/time/wall_clock.h"

namespace isochron {

/// How a source's stream is cut and paced. [value type]
struct BlockPacerSettings {
    static constexpr std::int64_t kForever = std::numeric_limits<std::int64_t>::max();

    double rateHz = 48000;                 ///< samples per second, > 0
    std::int64_t blockLength = 4096;       ///< samples per block, >= 1
    std::int64_t cycleLength = 0;          ///< samples per repeated cycle (the grid restarts); 0 = no cycles
    std::int64_t totalLength = kForever;   ///< samples in the whole stream, >= 0; kForever = endless
    double pace = 0;                       ///< 0 = as fast as possible, 1 = real time, N = N x real time
    double maxLagSeconds = 2;              ///< paced: drop overdue blocks once the next is this late (s, >= 0)
    std::int64_t progressInterval = 4096;  ///< samples between progress promises, >= 1
    double roundSpanSeconds = 0.01;        ///< paced: the most stream time one round hands out (s, > 0)
    TimeNs (*wallClock)() = &wallClockNs;  ///< paced: the clock read between blocks of a round (tests give a fake one)
};

/// Paced: the least stream time (s) between the promises made at the ends of rounds.
constexpr double kTimedProgressSeconds = 0.01;

/// The parameters every paced source declares: pace (live), max_lag and progress_interval.
std::vector<ParamSpec> pacingParamSpecs();
/// The slowest pace that is not 0 (as fast as possible): at 1e-9 a second of signal takes 30 years.
constexpr double kSlowestPace = 1e-3;
/// Throws ParameterError for a pace of its params between 0 and kSlowestPace, which the parameter's
/// range (0 to 1e6) cannot refuse by itself; for a source's deriveParams. [setup thread]
void refuseUnusablePace(const ParamSet& params);
/// A stream of at least this many samples counts as endless (its length would not fit in kForever's
/// integer once rounded): a source sets BlockPacerSettings::kForever for it.
constexpr double kEndlessSamples = 9e18;
/// Why a source `durationSeconds` long (0: no end) at `rateHz`, paced at `pace` (0: unpaced), never
/// ends in practice, for OperatorDescriptor::endlessBecause: a duration of 0, one of more samples than
/// a stream counts (kEndlessSamples: it then runs for ever), or, paced, one that takes
/// more than a century of wall time; "" for a duration that ends. [setup thread]
std::string endlessDurationBecause(double durationSeconds, double rateHz, double pace);
/// Settings with pace, max lag and progress interval read from those parameters; the caller sets
/// the rate, block, cycle and total lengths.
BlockPacerSettings pacingSettingsFrom(const ParamSet& params);

/// A block the source emits now. [value type]
struct DueBlock {
    std::int64_t start = 0;   ///< position (sample index) of its first sample
    std::int64_t length = 0;  ///< samples, >= 1
    TimeNs arrivalNs = 0;     ///< wall time to stamp on its items (Clock::wall)
    bool progressDue = false; ///< after emitting it, promise progress up to its end

    /// Position one past its last sample.
    std::int64_t end() const { return start + length; }
};

/// Which blocks a source emits in each produce() call, and what it then tells the engine. [engine thread]
class BlockPacer {
public:
    /// Start over at position 0 with these settings. [may be called again to restart]
    void configure(const BlockPacerSettings& settings);
    /// Change the pace (>= 0) from the current position on; the schedule stays continuous. [live]
    void changePace(double pace);

    /// Begin a round at wall time `nowNs` admitting at most `budget` (>= 1) blocks. Returns how many
    /// samples were dropped because the source fell more than max_lag behind (0 if none).
    std::int64_t beginRound(std::int64_t budget, TimeNs nowNs);
    /// Whether this round has no block left to give (its budget used, or the stream finished): the
    /// source need not ask for admission again. A paced round also ends when nextBlock() says so.
    bool roundOver() const { return roundBlocksLeft_ <= 0 || finished(); }
    /// The next block of this round (the position moves past it), or nullopt when the round is over:
    /// paced, also once the round handed out roundSpanSeconds of stream, or that block is more than
    /// max_lag late by settings.wallClock (the next round drops what is overdue).
    std::optional<DueBlock> nextBlock();
    /// Move, emitting nothing, to the block holding `position` (clamped to the last block) when it
    /// lies past the next block, so a stretch with nothing to emit costs one call, not one block
    /// each; the next block then says progress is due. Paced (within a round), only as far as the
    /// last block already due: a block not yet due still waits for its time.
    void skipEmptyTo(std::int64_t position);
    /// What the source's produce() returns after the round: finished; waitUntil(due time) when the
    /// next block is not due yet (even after emitting: the engine drains before it sleeps); else produced.
    SourceStatus endRound() const;

    /// Position of the next sample to emit.
    std::int64_t position() const { return position_; }
    /// Whether every block has been emitted or dropped.
    bool finished() const { return position_ >= settings_.totalLength; }
    /// Whether blocks follow the wall clock (pace > 0); unpaced rounds need no time.
    bool paced() const { return settings_.pace > 0; }

private:
    /// End of the block starting at `start` (grid-aligned).
    std::int64_t blockEnd(std::int64_t start) const;
    /// Start of the cycle holding sample `position` (cycleLength > 0). Blocks ask about the cycle of
    /// the block before almost always, so the last answer is kept: no 64-bit division per block.
    std::int64_t cycleStartOf(std::int64_t position) const;
    /// Start of the grid block holding sample `position`.
    std::int64_t blockStartHolding(std::int64_t position) const;
    /// Paced: wall time at which every sample before `position` is due.
    TimeNs dueNs(std::int64_t position) const;
    /// Paced: the position such that every sample before it is due at `nowNs`.
    std::int64_t duePosition(TimeNs nowNs) const;
    /// Paced: when the next block is more than max_lag late at `nowNs`, move past every overdue
    /// block; returns the samples skipped.
    std::int64_t dropOverdue(TimeNs nowNs);
    /// Paced: whether the block just handed out is the round's last (its successor is not due yet,
    /// the budget or the span is used, or the stream is finished).
    bool roundEndsHere() const;

    BlockPacerSettings settings_;
    std::int64_t position_ = 0;
    bool anchored_ = false;  // paced: anchorWallNs_/anchorPosition_ hold the schedule
    TimeNs anchorWallNs_ = 0;
    std::int64_t anchorPosition_ = 0;
    std::int64_t samplesSinceProgress_ = 0;
    std::int64_t timedProgressSamples_ = 1;  // paced: samples in kTimedProgressSeconds of stream, >= 1
    TimeNs maxLagNs_ = 0;
    std::int64_t roundSpanSamples_ = 1;  // paced: samples in roundSpanSeconds of stream, >= 1
    mutable std::int64_t lastCycleStart_ = 0;  // cycleStartOf's last answer (a cycle start for any settings)
    // The current round.
    TimeNs roundNowNs_ = 0;
    std::int64_t roundBlocksLeft_ = 0;
    bool roundStarted_ = false;  // paced: a block of this round went out (the first needs no clock read)
    std::int64_t roundEndPosition_ = 0;  // paced: a block starting here or later waits for the next round
};

}  // namespace isochron
