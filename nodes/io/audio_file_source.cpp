#include "nodes/io/audio_file_source.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/operators/operator.h"
#include "engine/runtime/engine.h"
#include "engine/runtime/start_interruption.h"
#include "engine/signal/sample_block.h"
#include "nodes/io/block_pacer.h"
#include "nodes/io/sound_file.h"
#include "nodes/io/sound_file_reading.h"
#include "nodes/spatial/channel_geometry.h"

namespace isochron {
namespace {

/// Drops the operator's reference to a pool block (emitted segments hold their own).
struct SampleBlockRelease {
    void operator()(SampleBlock* block) const noexcept { block->release(); }
};
using SampleBlockRef = std::unique_ptr<SampleBlock, SampleBlockRelease>;

/// Interleaved samples decoded per libsndfile call while preloading (bounds the scratch buffer).
constexpr std::int64_t kPreloadChunkSamples = std::int64_t{1} << 18;
/// Frames per channel preloading allocates before any is decoded; beyond that, storage grows with
/// what actually decodes, because a header's frame count is only a claim (a 138-byte FLAC can
/// claim 2^35 frames).
constexpr std::int64_t kPreloadInitialFrames = std::int64_t{1} << 20;

/// Whether the header of an opened file claims more data than the file holds (libsndfile then plays
/// what there is and notes "data : N (should be M)").
bool dataCutShort(const std::string& log) {
    for (std::size_t line = 0; line < log.size();) {
        const std::size_t end = std::min(log.find('\n', line), log.size());
        const std::string_view text(log.data() + line, end - line);
        if (text.starts_with("data") && text.find("(should be") != std::string_view::npos) return true;
        line = end + 1;
    }
    return false;
}

/// What starting on the opened file `path` warns about: a header only, or less data than the header says. "" otherwise.
std::string headerWarning(const std::string& path, const SoundFileForReading& opened) {
    if (opened.info.frames == 0) return "'" + path + "' holds no samples (a header only): nothing to play";
    if (dataCutShort(opened.headerLog)) {
        return "'" + path + "' is shorter than its header says (cut off?): playing the " + std::to_string(opened.info.frames) + " frames it holds";
    }
    return {};
}

/// Copies channel `channel` of `frames` interleaved frames of `channelCount` channels to `out`.
void deinterleave(const float* interleaved, std::int64_t frames, int channelCount, int channel, float* out) {
    for (std::int64_t i = 0; i < frames; ++i) out[i] = interleaved[i * channelCount + channel];
}

/// Outputs channels 0..N-1 of a sound file; sample indices keep rising across loops (loop k starts
/// at k * frames), so time is monotonic. Preloaded files are emitted as zero-copy views of one pool
/// block per channel.
class AudioFileSource final : public Operator {
protected:
    void onActivate() override {
        path_ = params().getString("path");
        if (path_.empty()) throw OperatorError("no file given (parameter 'path' is empty)");
        SoundFileForReading opened;
        try {
            opened = openSoundFileForReading(path_);
        } catch (const SoundFileOpenInterrupted&) {
            playNothing();  // the run is stopping (a named pipe nobody wrote into): it stops as it begins
            return;
        } catch (const std::runtime_error& e) {
            throw OperatorError(e.what());
        }
        file_ = std::move(opened.file);
        const SF_INFO& info = opened.info;
        if (const std::string warning = headerWarning(path_, opened); !warning.empty()) warn(warning);
        if (info.channels < outputCount()) {
            throw OperatorError("'" + path_ + "' has " + std::to_string(info.channels) + " channel(s), fewer than the " +
                                std::to_string(outputCount()) + " asked for");
        }
        fileChannels_ = info.channels;
        frames_ = info.frames;
        const int subtype = info.format & SF_FORMAT_SUBMASK;
        holdsFloats_ = subtype == SF_FORMAT_FLOAT || subtype == SF_FORMAT_DOUBLE;
        nonFinite_ = 0;
        firstNonFiniteFrame_ = -1;
        timebase_ = &Timebase::get(info.samplerate, 0, Clock::media());

        const std::int64_t loops = params().getInt("loops");
        BlockPacerSettings settings = pacingSettingsFrom(params());
        settings.rateHz = info.samplerate;
        settings.blockLength = params().getInt("block");
        settings.cycleLength = frames_;
        if (frames_ == 0) settings.totalLength = 0;
        else if (loops == 0 || loops > BlockPacerSettings::kForever / frames_) settings.totalLength = BlockPacerSettings::kForever;
        else settings.totalLength = loops * frames_;

        preloaded_ = params().getBool("preload");
        loopViews_.clear();
        if (preloaded_) {
            try {
                if (!preload()) settings.totalLength = 0;  // the run is stopping: nothing to play
            } catch (const std::bad_alloc&) {
                channelBlocks_.clear();
                throw OperatorError(preloadTooLarge());
            }
        } else {
            const std::int64_t longestBlock = std::min(settings.blockLength, std::max<std::int64_t>(frames_, 1));
            interleaved_.resize(static_cast<std::size_t>(longestBlock * fileChannels_));
            readPosition_ = 0;
        }
        pacer_.configure(settings);
    }

    bool followsWallClock() const override { return pacer_.paced(); }

    SourceStatus onProduce() override {
        const std::int64_t dropped = pacer_.beginRound(productionBudget(), pacer_.paced() ? wallClockNs() : 0);
        if (dropped > 0) {
            warn("fell more than max_lag behind the pace: dropped " + std::to_string(dropped) + " samples per channel");
        }
        while (!pacer_.roundOver() && admissionOpen()) {
            auto block = pacer_.nextBlock();
            if (!block) break;
            if (preloaded_) emitPreloaded(*block);
            else emitStreamed(*block);
            if (block->progressDue) emitProgress(timebase_->timeOf(block->end()));
        }
        return pacer_.endRound();
    }

    void onParameterChanged(std::string_view name) override {
        if (name == "pace") pacer_.changePace(params().getReal("pace"));
    }

    void onDeactivate() override {
        file_.reset();
        loopViews_.clear();
        channelBlocks_.clear();
        interleaved_ = {};
    }

private:
    /// Hold no file and emit nothing (the file's rate unknown, 1 Hz stands in for it).
    void playNothing() {
        file_.reset();
        fileChannels_ = outputCount();
        frames_ = 0;
        preloaded_ = true;
        timebase_ = &Timebase::get(1.0, 0, Clock::media());
        BlockPacerSettings settings = pacingSettingsFrom(params());
        settings.rateHz = 1.0;
        settings.blockLength = params().getInt("block");
        settings.cycleLength = 0;
        settings.totalLength = 0;
        pacer_.configure(settings);
    }

    /// Decode the whole file into one pool block per output channel, then close it. A file that
    /// ends before the frame count its header claims fails (readFrames) having allocated only
    /// about what it holds.
    /// Decodes the whole file into one block per channel; false when a stop interrupted it (see
    /// engine/runtime/start_interruption.h): then nothing is held.
    bool preload() {
        const std::int64_t chunkFrames = std::max<std::int64_t>(1, kPreloadChunkSamples / fileChannels_);
        std::vector<float> chunk(static_cast<std::size_t>(std::min(frames_, chunkFrames) * fileChannels_));
        std::int64_t capacity = std::clamp<std::int64_t>(frames_, 1, kPreloadInitialFrames);
        for (int c = 0; c < outputCount(); ++c) {
            channelBlocks_.emplace_back(SampleBlock::create(static_cast<std::size_t>(capacity) * sizeof(float)));
        }
        for (std::int64_t done = 0; done < frames_;) {
            if (startsInterrupted()) {
                channelBlocks_.clear();
                file_.reset();
                return false;
            }
            const std::int64_t count = std::min(chunkFrames, frames_ - done);
            readFrames(chunk.data(), count, done);
            if (done + count > capacity) {
                capacity = std::min(frames_, std::max(2 * capacity, done + count));
                growChannelBlocks(capacity, done);
            }
            for (int c = 0; c < outputCount(); ++c) {
                float* channel = reinterpret_cast<float*>(channelBlocks_[static_cast<std::size_t>(c)]->data());
                deinterleave(chunk.data(), count, fileChannels_, c, channel + done);
            }
            done += count;
        }
        file_.reset();
        if (nonFinite_ > 0) {
            warn("'" + path_ + "' holds " + std::to_string(nonFinite_) + " NaN or infinite sample(s), the first at frame " +
                 std::to_string(firstNonFiniteFrame_) + ": passed on as they are");
        }
        return true;
    }

    /// Why preloading ran out of memory: the size the file needs decoded, and the way out.
    std::string preloadTooLarge() const {
        const double bytes = static_cast<double>(frames_) * outputCount() * sizeof(float);
        std::ostringstream text;
        text << "cannot preload '" << path_ << "': decoded whole it needs " << static_cast<std::int64_t>(std::ceil(bytes / (1024.0 * 1024.0))) << " MiB ("
             << frames_ << " frames x " << outputCount() << " channel(s) x 4 bytes), more memory than this process may take; "
             << "set preload false to stream it from the file instead";
        return text.str();
    }

    /// Move the first `filled` frames of every channel into blocks of `capacity` frames.
    void growChannelBlocks(std::int64_t capacity, std::int64_t filled) {
        for (SampleBlockRef& block : channelBlocks_) {
            SampleBlockRef larger(SampleBlock::create(static_cast<std::size_t>(capacity) * sizeof(float)));
            std::memcpy(larger->data(), block->data(), static_cast<std::size_t>(filled) * sizeof(float));
            block = std::move(larger);
        }
    }

    /// Read `count` interleaved frames at the current file position (`atFrame`, for messages).
    void readFrames(float* interleaved, std::int64_t count, std::int64_t atFrame) {
        const sf_count_t got = sf_readf_float(file_.get(), interleaved, count);
        if (got != count) {
            const char* reason = sf_error(file_.get()) != SF_ERR_NO_ERROR ? sf_strerror(file_.get())
                                                                          : "the file is shorter than its header says";
            throw OperatorError(soundFileReadFailure(path_, atFrame + got, reason));
        }
        if (holdsFloats_ && (preloaded_ || firstNonFiniteFrame_ < 0)) findNonFinite(interleaved, count, atFrame);
    }

    /// Count the NaN and infinite samples of `count` interleaved frames read at `atFrame` (only a
    /// float file holds them). Streaming warns at the first such block; preload warns once with the total.
    void findNonFinite(const float* interleaved, std::int64_t count, std::int64_t atFrame) {
        std::int64_t found = 0;
        std::int64_t firstFrame = -1;
        for (std::int64_t i = 0; i < count * fileChannels_; ++i) {
            if (std::isfinite(interleaved[i])) continue;
            if (firstFrame < 0) firstFrame = atFrame + i / fileChannels_;
            ++found;
        }
        if (found == 0) return;
        nonFinite_ += found;
        if (preloaded_) {
            if (firstNonFiniteFrame_ < 0) firstNonFiniteFrame_ = firstFrame;
            return;
        }
        firstNonFiniteFrame_ = firstFrame;
        warn("'" + path_ + "' holds NaN or infinite samples, the first at frame " + std::to_string(firstFrame) +
             ": passed on as they are (later ones are not reported)");
    }

    void emitPreloaded(const DueBlock& block) {
        // Loop k's view of the file carries indices k * frames + offset: one wrap per channel and loop
        // (a block never spans two loops), and each block is a subseg of it, which shares the view's
        // storage list instead of allocating one per block.
        if (loopViews_.empty() || block.start < loopViews_.front().startIndex() || block.start >= loopViews_.front().endIndex()) {
            const std::int64_t loopStart = block.start - block.start % frames_;
            loopViews_.clear();
            for (const SampleBlockRef& storage : channelBlocks_) {
                loopViews_.push_back(SigSeg<float>::wrap(storage.get(), 0, frames_, loopStart, timebase_));
            }
        }
        for (std::size_t c = 0; c < loopViews_.size(); ++c) {  // one view per output
            emitSignal(static_cast<int>(c), loopViews_[c].subseg(block.start, block.length), block.arrivalNs);
        }
    }

    /// Moves the streamed reading to frame `offset` (a loop's start, or past blocks a paced run
    /// dropped). Where libsndfile cannot seek in the file's encoding (G.721 ADPCM in a WAV, found by
    /// tests/fuzz/audio_file: the second loop failed), the file is opened again for a move back and
    /// frames are read and dropped for a move forward.
    void moveReadingTo(std::int64_t offset) {
        if (sf_seek(file_.get(), offset, SEEK_SET) >= 0) return;
        if (offset < readPosition_) {
            try {
                file_ = openSoundFileForReading(path_).file;
            } catch (const std::runtime_error& e) {
                throw OperatorError(e.what());
            }
            readPosition_ = 0;
        }
        while (readPosition_ < offset) {
            const std::int64_t count = std::min<std::int64_t>(offset - readPosition_, static_cast<std::int64_t>(interleaved_.size()) / fileChannels_);
            readFrames(interleaved_.data(), count, readPosition_);
            readPosition_ += count;
        }
    }

    void emitStreamed(const DueBlock& block) {
        const std::int64_t offset = block.start % frames_;
        if (offset != readPosition_) moveReadingTo(offset);
        readFrames(interleaved_.data(), block.length, offset);
        readPosition_ = offset + block.length;
        for (int c = 0; c < outputCount(); ++c) {
            SigSeg<float> samples = SigSeg<float>::allocate(block.length, block.start, timebase_);
            deinterleave(interleaved_.data(), block.length, fileChannels_, c, samples.writable().data());
            emitSignal(c, std::move(samples), block.arrivalNs);
        }
    }

    void emitSignal(int port, SigSeg<float> samples, TimeNs arrivalNs) {
        Item item = Item::signal(std::move(samples));
        item.setArrivalNs(arrivalNs);
        emit(port, std::move(item));
    }

    std::string path_;
    SoundFile file_;
    int fileChannels_ = 0;
    bool holdsFloats_ = false;               // float or double samples, which may be NaN or infinite
    std::int64_t nonFinite_ = 0;             // NaN and infinite samples read so far
    std::int64_t firstNonFiniteFrame_ = -1;  // frame of the first one, -1 before
    std::int64_t frames_ = 0;  // per channel, one loop
    const Timebase* timebase_ = nullptr;
    BlockPacer pacer_;
    bool preloaded_ = true;
    std::vector<SampleBlockRef> channelBlocks_;  // preload: the decoded file, one block per output
    std::vector<SigSeg<float>> loopViews_;       // preload: per output, the current loop's view of its block
    std::vector<float> interleaved_;             // streaming: one block of interleaved frames
    std::int64_t readPosition_ = 0;              // streaming: file frame the next read returns
};

}  // namespace

OperatorDescriptor audioFileSourceDescriptor() {
    OperatorDescriptor d;
    d.typeName = "io.audio_file_source";
    d.category = "io";
    d.summary = "Replays a sound file (WAV, FLAC, ...) as one f32 signal per channel";
    d.documentation =
        "Reads any file libsndfile opens. Samples are floats as libsndfile gives them (integer formats "
        "normalized to [-1, 1)). All outputs share one timebase at the file's rate, time 0 on the media "
        "clock; loops continue the sample indices. With preload the file is decoded at activation and "
        "replayed from memory without copies. A paced source that falls more than max_lag behind drops "
        "the overdue blocks (a gap in the indices) and warns. The header is read at validation (isochron-run --check), "
        "so a file the run would refuse (missing, unrecognised, a rate of 0 or 2^31 Hz or more, a header that "
        "contradicts itself) is reported there, on 'path', and a file holding only a header or cut short is warned about there as at the start. NaN and infinite samples of a float file are passed on "
        "as they are, with a warning.";
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "channel k of the file", false, "channels"}};
    d.params = {
        ParamSpec{"path", ParamKind::Path, std::string(), {}, {}, "", "sound file to read (not -: no source reads standard input)"},
        ParamSpec{"channels", ParamKind::Int, std::int64_t{1}, 0.0, 1024.0, "",
                  "outputs: the file's first N channels; 0 = as many as the file has (read from its header)"},
        ParamSpec{"block", ParamKind::Int, std::int64_t{4096}, 1.0, {}, "samples", "samples per emitted segment per channel"},
        ParamSpec{"loops", ParamKind::Int, std::int64_t{1}, 0.0, {}, "", "times to play the file; 0 = forever"},
        ParamSpec{"preload", ParamKind::Bool, true, {}, {}, "", "decode the whole file into memory at start"},
    };
    for (ParamSpec& spec : pacingParamSpecs()) d.params.push_back(std::move(spec));
    d.params.push_back(sourceGeometryParameter());
    d.channelsOut = placedSourceChannels;
    d.create = [] { return std::make_unique<AudioFileSource>(); };
    d.endlessBecause = [](const ParamSet& params) { return params.getInt("loops") == 0 ? std::string("loops is 0") : std::string(); };
    // The header is read at validation, so that `isochron-run --check` reports a file the run would
    // refuse. A named pipe or a device is left to the run: reading its header here would consume it.
    d.deriveParams = [](ParamSet& params) {
        refuseUnusablePace(params);
        const std::string& path = params.getString("path");
        if (path.empty()) throw ParameterError("path", "no file given (parameter 'path' is empty)");
        const bool channelsFromFile = params.getInt("channels") == 0;
        std::error_code ignored;
        const std::filesystem::file_status status = std::filesystem::status(path, ignored);
        const bool readsAStream = std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
                                  !std::filesystem::is_directory(status);
        if (readsAStream && !channelsFromFile) return;
        SoundFileForReading opened;
        try {
            opened = openSoundFileForReading(path);
        } catch (const std::runtime_error& e) {
            throw ParameterError("path", std::string(e.what()) + (channelsFromFile ? " (channels 0 takes the channel count from the file)" : ""));
        }
        if (channelsFromFile) params.set("channels", static_cast<std::int64_t>(opened.info.channels));
        else if (opened.info.channels < params.getInt("channels")) {
            throw ParameterError("channels", "'" + path + "' has " + std::to_string(opened.info.channels) + " channel(s), fewer than the " +
                                                 std::to_string(params.getInt("channels")) + " asked for");
        }
    };
    // --check warns as the start does about a header only or a file cut short (a stream is left to the run, as above).
    d.checkStart = [](const ParamSet& params) {
        const std::string& path = params.getString("path");
        std::error_code ignored;
        if (!std::filesystem::is_regular_file(path, ignored)) return std::vector<std::string>{};
        const std::string warning = headerWarning(path, openSoundFileForReading(path));
        return warning.empty() ? std::vector<std::string>{} : std::vector<std::string>{warning};
    };
    return d;
}

}  // namespace isochron
