#include "nodes/io/block_pacer.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/runtime/engine.h"

namespace isochron {

std::vector<ParamSpec> pacingParamSpecs() {
    return {
        ParamSpec{"pace", ParamKind::Real, 0.0, 0.0, 1e6, "x real time",
                  "speed: 0 = as fast as possible, 1 = real time, N = N times real time (0, or 0.001 to 1e6)", {}, true},
        ParamSpec{"max_lag", ParamKind::Real, 2.0, 0.0, {}, "s",
                  "paced: drop the overdue blocks once this far behind (blocks go out at most 10 ms of stream at a time, "
                  "so under overload latency stays near max_lag whatever the scheduler)"},
        ParamSpec{"progress_interval", ParamKind::Int, std::int64_t{65536}, 1.0, {}, "samples",
                  "samples between progress promises; paced, progress is also promised after each batch of due blocks "
                  "once 10 ms of stream went out since the last promise"},
    };
}

void refuseUnusablePace(const ParamSet& params) {
    const double pace = params.getReal("pace");
    if (pace > 0 && pace < kSlowestPace) {
        std::ostringstream text;
        text << "pace " << pace << " is below 0.001 times real time (a second of signal would take " << 1 / pace << " s): ";
        throw ParameterError("pace", text.str() + "give 0 (as fast as possible) or 0.001 to 1e6");
    }
}

std::string endlessDurationBecause(double durationSeconds, double rateHz, double pace) {
    if (durationSeconds == 0) return "duration is 0";
    constexpr double kCenturySeconds = 100 * 365.25 * 86400;
    std::ostringstream text;
    text << "duration " << durationSeconds << " s";
    if (std::round(durationSeconds * rateHz) >= kEndlessSamples) {
        text << " at " << rateHz << " Hz is more samples than a stream counts (9e18), so it never ends";
        return text.str();
    }
    if (pace > 0 && durationSeconds / pace > kCenturySeconds) {
        text << " at pace " << pace << " takes more than a century";
        return text.str();
    }
    return {};
}

BlockPacerSettings pacingSettingsFrom(const ParamSet& params) {
    BlockPacerSettings settings;
    settings.pace = params.getReal("pace");
    settings.maxLagSeconds = params.getReal("max_lag");
    settings.progressInterval = params.getInt("progress_interval");
    return settings;
}

void BlockPacer::configure(const BlockPacerSettings& settings) {
    settings_ = settings;
    position_ = 0;
    anchored_ = false;
    samplesSinceProgress_ = 0;
    timedProgressSamples_ = std::max<std::int64_t>(1, std::llround(settings.rateHz * kTimedProgressSeconds));
    maxLagNs_ = static_cast<TimeNs>(std::llround(settings.maxLagSeconds * 1e9));
    const double roundSpan = std::min(settings.rateHz * settings.roundSpanSeconds, static_cast<double>(BlockPacerSettings::kForever));
    roundSpanSamples_ = std::max<std::int64_t>(1, std::llround(roundSpan));
    lastCycleStart_ = 0;
    roundBlocksLeft_ = 0;
    roundStarted_ = false;
}

void BlockPacer::changePace(double pace) {
    if (paced() && anchored_ && pace > 0) {
        // Keep the due time of the next sample boundary; only the speed from here on changes.
        anchorWallNs_ = dueNs(position_);
        anchorPosition_ = position_;
    } else {
        anchored_ = false;  // a newly paced stream anchors at its next round
    }
    settings_.pace = pace;
}

std::int64_t BlockPacer::beginRound(std::int64_t budget, TimeNs nowNs) {
    roundNowNs_ = nowNs;
    roundBlocksLeft_ = paced() ? budget : 1;
    roundStarted_ = false;
    if (!paced() || finished()) return 0;
    std::int64_t dropped = 0;
    if (anchored_) {
        dropped = dropOverdue(nowNs);
    } else {
        anchorWallNs_ = nowNs;
        anchorPosition_ = position_;
        anchored_ = true;
    }
    roundEndPosition_ = position_ > BlockPacerSettings::kForever - roundSpanSamples_ ? BlockPacerSettings::kForever : position_ + roundSpanSamples_;
    return dropped;
}

std::int64_t BlockPacer::dropOverdue(TimeNs nowNs) {
    if (nowNs - dueNs(blockEnd(position_)) <= maxLagNs_) return 0;
    // Every block ending at or before the due position is overdue: resume with the block holding it.
    const std::int64_t due = duePosition(nowNs);
    const std::int64_t resume = due >= settings_.totalLength ? settings_.totalLength : blockStartHolding(due);
    if (resume <= position_) return 0;
    const std::int64_t dropped = resume - position_;
    position_ = resume;
    return dropped;
}

std::optional<DueBlock> BlockPacer::nextBlock() {
    if (roundBlocksLeft_ <= 0 || finished()) return std::nullopt;
    DueBlock block;
    block.start = position_;
    block.length = blockEnd(position_) - position_;
    if (paced()) {
        block.arrivalNs = dueNs(block.end());
        if (block.arrivalNs > roundNowNs_) return std::nullopt;
        if (roundStarted_ && (block.start >= roundEndPosition_ || settings_.wallClock() - block.arrivalNs > maxLagNs_)) {
            roundBlocksLeft_ = 0;  // asked again at once; the next round drops what is overdue by then
            return std::nullopt;
        }
        roundStarted_ = true;
    } else {
        block.arrivalNs = wallClockNs();
    }
    position_ = block.end();
    --roundBlocksLeft_;
    samplesSinceProgress_ += block.length;
    const bool timedPromiseDue = paced() && samplesSinceProgress_ >= timedProgressSamples_ && roundEndsHere();
    if (samplesSinceProgress_ >= settings_.progressInterval || timedPromiseDue) {
        block.progressDue = true;
        samplesSinceProgress_ = 0;
    }
    return block;
}

bool BlockPacer::roundEndsHere() const {
    return roundBlocksLeft_ <= 0 || finished() || position_ >= roundEndPosition_ || dueNs(blockEnd(position_)) > roundNowNs_;
}

void BlockPacer::skipEmptyTo(std::int64_t position) {
    if (finished()) return;
    std::int64_t target = blockStartHolding(std::min(position, settings_.totalLength - 1));
    if (paced()) {
        // The last block ending by the due position (a block is due once its end is).
        const std::int64_t due = anchored_ ? std::min(duePosition(roundNowNs_), settings_.totalLength) : position_;
        if (due <= position_) return;
        std::int64_t lastDue = blockStartHolding(due - 1);
        if (blockEnd(lastDue) > due) {
            if (lastDue <= position_) return;
            lastDue = blockStartHolding(lastDue - 1);
        }
        target = std::min(target, lastDue);
    }
    if (target <= position_) return;
    samplesSinceProgress_ = settings_.progressInterval;  // the next block promises past the skipped stretch
    position_ = target;
}

SourceStatus BlockPacer::endRound() const {
    if (finished()) return SourceStatus::finished();
    if (paced()) {
        const TimeNs nextDue = dueNs(blockEnd(position_));
        if (nextDue > roundNowNs_) return SourceStatus::waitUntil(nextDue);
    }
    return SourceStatus::produced();
}

std::int64_t BlockPacer::blockEnd(std::int64_t start) const {
    const std::int64_t total = settings_.totalLength;
    std::int64_t end = start > total - settings_.blockLength ? total : start + settings_.blockLength;
    if (settings_.cycleLength > 0) {
        const std::int64_t cycleStart = cycleStartOf(start);
        const std::int64_t cycleEnd =
            cycleStart > total - settings_.cycleLength ? total : cycleStart + settings_.cycleLength;
        end = std::min(end, cycleEnd);
    }
    return end;
}

std::int64_t BlockPacer::cycleStartOf(std::int64_t position) const {
    if (position < lastCycleStart_ || position - lastCycleStart_ >= settings_.cycleLength) {
        lastCycleStart_ = position - position % settings_.cycleLength;
    }
    return lastCycleStart_;
}

std::int64_t BlockPacer::blockStartHolding(std::int64_t position) const {
    const std::int64_t cycleStart = settings_.cycleLength > 0 ? position - position % settings_.cycleLength : 0;
    return cycleStart + (position - cycleStart) / settings_.blockLength * settings_.blockLength;
}

TimeNs BlockPacer::dueNs(std::int64_t position) const {
    const long double samplesPerNs = static_cast<long double>(settings_.rateHz) * settings_.pace / 1e9L;
    return anchorWallNs_ + static_cast<TimeNs>(std::llround(static_cast<long double>(position - anchorPosition_) / samplesPerNs));
}

std::int64_t BlockPacer::duePosition(TimeNs nowNs) const {
    if (nowNs <= anchorWallNs_) return anchorPosition_;
    const long double samplesPerNs = static_cast<long double>(settings_.rateHz) * settings_.pace / 1e9L;
    const long double due = static_cast<long double>(anchorPosition_) +
                            std::floor(static_cast<long double>(nowNs - anchorWallNs_) * samplesPerNs);
    if (due >= static_cast<long double>(BlockPacerSettings::kForever)) return BlockPacerSettings::kForever;
    return static_cast<std::int64_t>(due);
}

}  // namespace isochron
