// isochron-archive: look into a stream archive (docs/archive.md) from the shell: list its streams,
// describe one, print what an interval holds, export an interval as WAV, FLAC or JSON lines, and
// prune old data. Times are seconds from a stream's sample 0 or ISO 8601 (engine/archive/archive_time.h).
#include <sqlite3.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include "app/archive/jsonl_export.h"
#include "app/archive/sound_export.h"
#include "engine/archive/archive_store.h"
#include "engine/archive/archive_time.h"
#include "engine/files/file_kind.h"
#include "engine/files/standard_streams.h"
#include "nodes/io/output_path.h"
#include "nodes/io/sound_file.h"

using namespace isochron;

namespace {

constexpr const char* kUsage = R"(Usage: isochron-archive COMMAND ARCHIVE [STREAM] [options]

Commands:
  ls ARCHIVE                       every stream: kind, channels, rate, clock, what is stored, size
  info ARCHIVE STREAM              a stream's metadata and the stretches each channel holds (gaps between)
  get ARCHIVE STREAM [--from T] [--to T] [--channel N]
                                   what [from, to) holds: stored pieces and gaps (signals; --channel N for
                                   one channel), or the items as JSON lines (event and scalar streams)
  export ARCHIVE STREAM [--from T] [--to T] --format wav|flac|jsonl --output FILE
                                   write [from, to): wav (32-bit float) or flac (24-bit; samples beyond
                                   +-1 clipped) need a stretch without gaps on every channel; jsonl writes
                                   pieces, gaps and items, one JSON object per line ("-" = standard output:
                                   jsonl and flac stream into a pipe, wav needs a file); any length is
                                   written a chunk at a time, in tens of MiB of memory
  prune ARCHIVE STREAM --before T  drop what ends at or before T (a piece reaching past T stays whole)

Times T: seconds from the stream's sample 0 (12.5) or, for streams on the wall clock, an ISO 8601
time (2026-11-28T03:12:00.25Z; +01:00 for a zone; none = UTC). --from defaults to the first stored
sample, --to to one past the last. For a stream on the wall clock, ls, info and get show each time
in UTC beside its seconds (items: "time_utc"); a stream on a media clock has seconds only.

Exit status: 0 success, 1 bad usage or an error (unknown archive or stream, empty interval, nothing
stored in it: for an event or scalar stream no item starting in it, a gap in an interval to export
as sound), 141 standard output closed by its reader while
writing there (get ... | head -1, export ... --output - | head -1): SIGPIPE ends the program, and what
was not yet written is not written.
)";

/// A refusal to print to the user (exit status 1).
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// The command line after the command and its positional arguments: --name value pairs.
struct Options {
    std::vector<std::string> positional;
    std::map<std::string, std::string> named;

    std::optional<std::string> get(const std::string& name) const {
        auto found = named.find(name);
        return found == named.end() ? std::nullopt : std::optional(found->second);
    }
};

Options parseOptions(int argc, char** argv, const std::vector<std::string>& allowed) {
    Options options;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.rfind("--", 0) == 0) {
            if (std::find(allowed.begin(), allowed.end(), arg) == allowed.end()) throw UsageError("unknown option " + arg + " for " + argv[1]);
            if (i + 1 >= argc) throw UsageError(arg + " needs a value");
            if (options.named.count(arg)) throw UsageError(arg + " given twice (" + options.named[arg] + " and " + argv[i + 1] + "): give it once");
            options.named[arg] = argv[++i];
        } else {
            options.positional.push_back(arg);
        }
    }
    return options;
}

std::string seconds(const ArchivedStreamInfo& info, std::int64_t index) {
    char text[64];  // snprintf, not a stream: get prints two per piece
    std::snprintf(text, sizeof text, "%.6f s", static_cast<double>(index) / info.rateHz);
    return text;
}

bool onWallClock(const ArchivedStreamInfo& info) { return info.clock == Clock::wall().name(); }

/// Index and time of a sample: "12.500000 s" (and the UTC time on the wall clock).
std::string when(const ArchivedStreamInfo& info, std::int64_t index) {
    std::string text = seconds(info, index);
    if (onWallClock(info)) text += " (" + formatUtc(info.timebase().timeOf(index)) + ")";
    return text;
}

/// Samples [start, end) as "[0.500000 s, 0.750000 s)", followed on the wall clock by the same
/// interval in UTC (" = [2026-11-28T03:00:00.500000000Z, 2026-11-28T03:00:00.750000000Z)"): a user
/// looking for "03:12 last night" reads the dates, a script the seconds.
std::string span(const ArchivedStreamInfo& info, std::int64_t start, std::int64_t end) {
    std::string text = "[" + seconds(info, start) + ", " + seconds(info, end) + ")";
    if (onWallClock(info)) text += " = [" + formatUtc(info.timebase().timeOf(start)) + ", " + formatUtc(info.timebase().timeOf(end)) + ")";
    return text;
}

std::string byteSize(std::int64_t bytes) {
    char text[32];
    if (bytes >= (1 << 20)) std::snprintf(text, sizeof text, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    else std::snprintf(text, sizeof text, "%.1f KiB", static_cast<double>(bytes) / 1024);
    return text;
}

ArchivedStreamInfo requireStream(ArchiveStore& store, const std::string& name) {
    if (std::optional<ArchivedStreamInfo> info = store.stream(name)) return *info;
    std::string held;
    for (const ArchivedStreamInfo& stream : store.streams()) held += (held.empty() ? "" : ", ") + stream.name;
    throw UsageError("archive '" + store.path() + "' holds no stream '" + name + "' (" + (held.empty() ? "it holds none" : "it holds: " + held) + ")");
}

/// The interval [l, h) the options --from and --to name, defaulting to what is stored; refuses an
/// empty one and one where nothing is stored.
std::pair<std::int64_t, std::int64_t> interval(ArchiveStore& store, const ArchivedStreamInfo& info, const Options& options) {
    // Only the ends (two index look-ups per channel), not extent(), which reads every row of a version-3 file.
    const std::optional<std::int64_t> first = store.storedStart(info.name);
    if (!first) throw UsageError("stream '" + info.name + "' of archive '" + store.path() + "' holds nothing yet");
    std::int64_t last = *first;
    for (int channel = 0; channel < info.channels; ++channel) last = std::max(last, store.storedEnd(info.name, channel).value_or(last));
    const struct {
        std::int64_t start, end;
    } stored{*first, last};
    const auto* extent = &stored;
    const std::optional<std::string> from = options.get("--from");
    const std::optional<std::string> to = options.get("--to");
    const std::int64_t l = from ? sampleIndexAt(info, parseArchiveTime(*from)) : extent->start;
    const std::int64_t h = to ? sampleIndexAt(info, parseArchiveTime(*to)) : extent->end;
    if (l >= h) {
        throw UsageError("empty interval: from " + when(info, l) + " is not before to " + when(info, h) + " (stream '" + info.name + "' holds " +
                         when(info, extent->start) + " to " + when(info, extent->end) + ")");
    }
    if (h <= extent->start || l >= extent->end) {
        throw UsageError("nothing of stream '" + info.name + "' is stored in " + seconds(info, l) + " to " + seconds(info, h) + " (it holds " +
                         when(info, extent->start) + " to " + when(info, extent->end) + ")");
    }
    return {l, h};
}

int listStreams(ArchiveStore& store) {
    std::printf("%-20s %-6s %8s %10s %-12s %16s %16s %12s  %s\n", "stream", "kind", "channels", "rate_hz", "clock", "from", "to", "size", "utc (wall clock)");
    for (const ArchivedStreamInfo& info : store.streams()) {
        const std::optional<ArchivedExtent> extent = store.extent(info.name);
        const bool signal = info.kind == ArchivedStreamInfo::Kind::Signal;
        const std::string utc = extent && onWallClock(info) ? formatUtc(info.timebase().timeOf(extent->start)) + " to " + formatUtc(info.timebase().timeOf(extent->end))
                                                            : std::string("-");
        std::printf("%-20s %-6s %8d %10g %-12s %16s %16s %12s  %s\n", info.name.c_str(), signal ? "signal" : "items", info.channels, info.rateHz,
                    info.clock.c_str(), extent ? seconds(info, extent->start).c_str() : "-", extent ? seconds(info, extent->end).c_str() : "-",
                    byteSize(extent ? extent->bytes : 0).c_str(), utc.c_str());
    }
    return 0;
}

int describeStream(ArchiveStore& store, const ArchivedStreamInfo& info) {
    const bool signal = info.kind == ArchivedStreamInfo::Kind::Signal;
    std::string storedAs = !signal ? std::string("JSON text") : info.representation;
    if (signal && info.representation == "flac") storedAs += " (lossless: pieces exact at 16 or 24 bits as FLAC, any other piece as f32)";
    if (info.originalRate() != info.rateHz) storedAs += " (recorded at " + (std::ostringstream() << info.originalRate()).str() + " Hz)";
    const auto orDash = [](const std::string& text) { return text.empty() ? "-" : text.c_str(); };
    std::printf("stream       %s\nkind         %s\ntimebase     %s\nchannels     %d\ngeometry     %s\nsample type  %s\nstored as    %s\nunits        %s\n"
                "graph        %s\nproducer     %s\nrecorder     %s\n",
                info.name.c_str(), signal ? "signal" : "items", info.timebase().describe().c_str(), info.channels, orDash(info.geometry),
                info.sampleType.c_str(), storedAs.c_str(), orDash(info.units), orDash(info.graph), orDash(info.producer), info.node.c_str());
    const std::optional<ArchivedExtent> extent = store.extent(info.name);
    if (!extent) {
        std::printf("stored       nothing\n");
        return 0;
    }
    std::printf("stored       %s to %s, %lld %s, %s\n", when(info, extent->start).c_str(), when(info, extent->end).c_str(),
                static_cast<long long>(extent->rows), signal ? "pieces" : "items", byteSize(extent->bytes).c_str());
    for (int channel = 0; signal && channel < info.channels; ++channel) {
        const auto stretches = store.coverage(info.name, channel);
        std::printf("channel %d    %zu stretch(es)", channel, stretches.size());
        for (std::size_t i = 0; i < stretches.size() && i < 20; ++i) {
            std::printf("%s%s", i ? ", " : ": ", span(info, stretches[i].first, stretches[i].second).c_str());
        }
        std::printf("%s\n", stretches.size() > 20 ? ", ..." : "");
    }
    return 0;
}

/// The refusal of an interval [l, h) inside an item stream's extent that holds no item (exit status 1,
/// as an interval of a signal stream holding nothing).
std::string noItemsMessage(const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h) {
    return "no items of stream '" + info.name + "' in [" + seconds(info, l) + ", " + seconds(info, h) + ")";
}

/// Sum of the squares of each of four runs (all `length` long), each summed in double in four
/// interleaved sums, then sums[0] + sums[1] + sums[2] + sums[3]: rms()'s sum of one contiguous run,
/// bit for bit. One running sum waits for each addition; the four runs' sums, side by side, do not
/// wait for each other (SSE2: sums 0-1 and 2-3 of a run are the two lanes of one register each).
std::array<double, 4> squareSumsOfFour(const std::array<const float*, 4>& runs, std::size_t length) {
    std::array<std::array<double, 4>, 4> sums{};
    std::size_t i = 0;
#ifdef __SSE2__
    __m128d low0 = _mm_setzero_pd(), high0 = low0, low1 = low0, high1 = low0, low2 = low0, high2 = low0, low3 = low0, high3 = low0;
    const auto add = [](__m128d& low, __m128d& high, const float* four) {
        const __m128 samples = _mm_loadu_ps(four);
        const __m128d first = _mm_cvtps_pd(samples), second = _mm_cvtps_pd(_mm_movehl_ps(samples, samples));
        low = _mm_add_pd(low, _mm_mul_pd(first, first));
        high = _mm_add_pd(high, _mm_mul_pd(second, second));
    };
    for (; i + 4 <= length; i += 4) {
        add(low0, high0, runs[0] + i);
        add(low1, high1, runs[1] + i);
        add(low2, high2, runs[2] + i);
        add(low3, high3, runs[3] + i);
    }
    const __m128d lows[4] = {low0, low1, low2, low3}, highs[4] = {high0, high1, high2, high3};
    for (std::size_t r = 0; r < 4; ++r) {
        _mm_storeu_pd(sums[r].data(), lows[r]);
        _mm_storeu_pd(sums[r].data() + 2, highs[r]);
    }
#else
    for (; i + 4 <= length; i += 4) {
        for (std::size_t r = 0; r < 4; ++r) {
            for (std::size_t k = 0; k < 4; ++k) sums[r][k] += static_cast<double>(runs[r][i + k]) * runs[r][i + k];
        }
    }
#endif
    for (; i < length; ++i) {
        for (std::size_t r = 0; r < 4; ++r) sums[r][0] += static_cast<double>(runs[r][i]) * runs[r][i];
    }
    std::array<double, 4> totals{};
    for (std::size_t r = 0; r < 4; ++r) totals[r] = sums[r][0] + sums[r][1] + sums[r][2] + sums[r][3];
    return totals;
}

/// The root mean square of `samples`, summed in double in four interleaved sums (one running sum
/// waits for each addition: a quarter of the time; get prints it for every piece).
double rms(const SigSeg<float>& samples) {
    std::array<double, 4> sums{};
    samples.forEachSpan([&](std::span<const float> run) {
        std::size_t i = 0;
        for (; i + 4 <= run.size(); i += 4) {
            for (std::size_t k = 0; k < 4; ++k) sums[k] += static_cast<double>(run[i + k]) * run[i + k];
        }
        for (; i < run.size(); ++i) sums[0] += static_cast<double>(run[i]) * run[i];
    });
    return std::sqrt((sums[0] + sums[1] + sums[2] + sums[3]) / static_cast<double>(samples.length()));
}

/// rms() of every stored piece (gaps: 0), bit for bit; four contiguous pieces of one length (a
/// recording's usual pieces) at a time through squareSumsOfFour.
std::vector<double> rmsOfPieces(const std::vector<ArchivedPiece>& pieces) {
    std::vector<double> found(pieces.size());
    const auto contiguous = [&](std::size_t p) { return !pieces[p].isGap() && pieces[p].samples.pieceCount() == 1; };
    std::size_t p = 0;
    while (p < pieces.size()) {
        if (p + 4 <= pieces.size() && contiguous(p) && contiguous(p + 1) && contiguous(p + 2) && contiguous(p + 3) &&
            pieces[p + 1].length == pieces[p].length && pieces[p + 2].length == pieces[p].length && pieces[p + 3].length == pieces[p].length) {
            std::array<const float*, 4> runs{};
            for (std::size_t r = 0; r < 4; ++r) runs[r] = pieces[p + r].samples.materialize().data();
            const std::array<double, 4> sums = squareSumsOfFour(runs, static_cast<std::size_t>(pieces[p].length));
            for (std::size_t r = 0; r < 4; ++r) found[p + r] = std::sqrt(sums[r] / static_cast<double>(pieces[p].length));
            p += 4;
            continue;
        }
        if (!pieces[p].isGap()) found[p] = rms(pieces[p].samples);
        ++p;
    }
    return found;
}

/// [l, h) as --from and --to give it when both are given and l < h, else nothing: interval()'s
/// checks against the stored ends then wait until a first channel read holds no stored piece (its
/// look-ups of each channel's first and last piece cost a get more than its SQLite rows).
std::optional<std::pair<std::int64_t, std::int64_t>> givenInterval(const ArchivedStreamInfo& info, const Options& options) {
    const std::optional<std::string> from = options.get("--from");
    const std::optional<std::string> to = options.get("--to");
    if (!from || !to) return std::nullopt;
    const std::int64_t l = sampleIndexAt(info, parseArchiveTime(*from));
    const std::int64_t h = sampleIndexAt(info, parseArchiveTime(*to));
    if (l >= h) return std::nullopt;
    return std::pair{l, h};
}

int printInterval(ArchiveStore& store, const ArchivedStreamInfo& info, const Options& options) {
    std::optional<std::pair<std::int64_t, std::int64_t>> unchecked = info.kind == ArchivedStreamInfo::Kind::Signal ? givenInterval(info, options) : std::nullopt;
    const auto [l, h] = unchecked ? *unchecked : interval(store, info, options);
    if (info.kind == ArchivedStreamInfo::Kind::Items) {
        // An option that cannot apply is refused, not ignored: the items printed would not be the asked-for channel's.
        if (options.get("--channel")) {
            throw UsageError("stream '" + info.name + "' holds items (events or scalars), which have no channels: --channel applies to signal streams only; leave it out to get the items");
        }
        if (writeItemJsonLines(store, info, l, h, std::cout) == 0) throw UsageError(noItemsMessage(info, l, h));
        return 0;
    }
    const std::optional<std::string> only = options.get("--channel");
    bool channelFound = !only;
    for (int channel = 0; channel < info.channels; ++channel) channelFound = channelFound || std::to_string(channel) == *only;
    if (!channelFound) throw UsageError("stream '" + info.name + "' has " + std::to_string(info.channels) + " channel(s), no channel " + *only);
    for (int channel = 0; channel < info.channels; ++channel) {
        if (only && std::to_string(channel) != *only) continue;
        const std::vector<ArchivedPiece> pieces = store.get(info.name, channel, l, h);
        // A stored piece in [l, h) means the stream holds something there: interval() would pass it.
        // Else its checks run now, before anything is printed, and refuse as they would have.
        if (unchecked && std::all_of(pieces.begin(), pieces.end(), [](const ArchivedPiece& piece) { return piece.isGap(); })) interval(store, info, options);
        unchecked.reset();
        const std::vector<double> rmsValues = rmsOfPieces(pieces);
        for (std::size_t p = 0; p < pieces.size(); ++p) {
            const ArchivedPiece& piece = pieces[p];
            std::printf("channel %d  %s  ", channel, span(info, piece.start, piece.end()).c_str());
            if (piece.isGap()) {
                std::printf("gap     %lld samples\n", static_cast<long long>(piece.length));
                continue;
            }
            std::printf("stored  %lld samples, rms %.6g\n", static_cast<long long>(piece.length), rmsValues[p]);
        }
    }
    return 0;
}

int exportJsonLines(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, std::ostream& out) {
    if (info.kind == ArchivedStreamInfo::Kind::Items) {
        if (writeItemJsonLines(store, info, l, h, out) == 0) throw UsageError(noItemsMessage(info, l, h));
        return 0;
    }
    writeSignalJsonLines(store, info, l, h, out);
    return 0;
}

/// The file an export writes, checked before anything is written: never the archive itself (through a
/// link or not), nor a pipe nobody may read. A regular file (or a new one) is written as
/// `<file>.partial` and renamed when complete, so a failed export leaves the old file whole; a
/// device is written in place; a symlink is written through to the file it names.
struct ExportTarget {
    std::string path;     // the file the export ends up in ("-": standard output)
    std::string writing;  // the file written meanwhile
    bool renameWhenDone = false;
};

ExportTarget exportTarget(const std::string& output, const std::string& archive) {
    if (output == "-") return {output, output};
    refuseUnwritableOutput(output, "--output");
    if (const std::optional<std::string> suffix = archiveFileNamed(output, archive)) {
        throw UsageError("--output '" + output + "' is the archive '" + archive + "'" + (suffix->empty() ? std::string() : " (its file " + *suffix + ")") +
                         " itself: the export would destroy the recording; give another file");
    }
    const std::string target = followSymlinks(output);
    const std::string kind = nonRegularFileKind(target);
    if (!kind.empty()) return {target, target};
    return {target, target + ".partial", true};
}

/// The partial file of the export under way, for the signal handler to remove ("" when none).
char gPartialBeingWritten[4096];

/// SIGINT/SIGTERM/SIGHUP during an export: remove the partial file (an export cut short is worth
/// nothing, and it was left behind without a word), say so, and end by the signal as before. [signal handler]
void removePartialAndEnd(int signalNumber) {
    if (gPartialBeingWritten[0] != '\0' && ::unlink(gPartialBeingWritten) == 0) {
        constexpr char kSaid[] = "isochron-archive: export stopped by a signal: removed the unfinished file '";
        [[maybe_unused]] ssize_t ignored = ::write(STDERR_FILENO, kSaid, sizeof kSaid - 1);
        ignored = ::write(STDERR_FILENO, gPartialBeingWritten, std::strlen(gPartialBeingWritten));
        constexpr char kUntouched[] = "'; the output file is untouched\n";
        ignored = ::write(STDERR_FILENO, kUntouched, sizeof kUntouched - 1);
    }
    ::signal(signalNumber, SIG_DFL);
    ::raise(signalNumber);
}

/// While alive, a stop signal removes `partial` before ending the program (signals the caller
/// ignores, as under nohup, stay ignored). [main thread]
class PartialRemovedOnSignal {
public:
    explicit PartialRemovedOnSignal(const std::string& partial) {
        if (partial.empty() || partial.size() >= sizeof gPartialBeingWritten) return;
        std::memcpy(gPartialBeingWritten, partial.c_str(), partial.size() + 1);
        for (std::size_t i = 0; i < kSignals.size(); ++i) {
            struct sigaction handler {};
            handler.sa_handler = removePartialAndEnd;
            sigemptyset(&handler.sa_mask);
            ::sigaction(kSignals[i], nullptr, &previous_[i]);
            if (previous_[i].sa_handler != SIG_IGN) ::sigaction(kSignals[i], &handler, nullptr);
        }
        installed_ = true;
    }
    ~PartialRemovedOnSignal() {
        if (!installed_) return;
        for (std::size_t i = 0; i < kSignals.size(); ++i) ::sigaction(kSignals[i], &previous_[i], nullptr);
        gPartialBeingWritten[0] = '\0';
    }
    PartialRemovedOnSignal(const PartialRemovedOnSignal&) = delete;
    PartialRemovedOnSignal& operator=(const PartialRemovedOnSignal&) = delete;

private:
    static constexpr std::array<int, 3> kSignals = {SIGINT, SIGTERM, SIGHUP};
    std::array<struct sigaction, 3> previous_{};
    bool installed_ = false;
};

/// Moves a complete export into place. [main thread]
void finishExport(const ExportTarget& target) {
    if (!target.renameWhenDone) return;
    if (std::rename(target.writing.c_str(), target.path.c_str()) != 0) {
        const std::string reason = std::strerror(errno);
        std::remove(target.writing.c_str());
        throw UsageError("cannot rename '" + target.writing + "' to '" + target.path + "': " + reason);
    }
}

int exportSound(ArchiveStore& store, const ArchivedStreamInfo& info, std::int64_t l, std::int64_t h, bool flac, const ExportTarget& target) {
    if (info.kind != ArchivedStreamInfo::Kind::Signal) throw UsageError("stream '" + info.name + "' holds items: export it as jsonl");
    if (info.rateHz != std::round(info.rateHz) || info.rateHz > 1e9) {
        throw UsageError("stream '" + info.name + "' has a sample rate of " + std::to_string(info.rateHz) + " Hz, which a sound file cannot state");
    }
    // libsndfile writes a WAV's sizes into its header at the end, seeking back; a FLAC stream needs no seeking.
    if (!flac && target.writing == "-" && ::lseek(STDOUT_FILENO, 0, SEEK_CUR) < 0) {
        throw UsageError("wav cannot go to standard output here (a pipe or a terminal): its header's sizes are written at the end by seeking "
                         "back. Redirect standard output to a file (> clip.wav), give --output FILE, or export --format flac, which streams");
    }
    const SoundExportResult written =
        writeSoundExport(store, info, l, h, flac ? SoundExportFormat::Flac24 : SoundExportFormat::WavFloat, target.writing);
    finishExport(target);
    std::fprintf(stderr, "wrote %s: %lld frames x %d channel(s) at %g Hz, %s to %s\n", target.path.c_str(), static_cast<long long>(written.frames),
                 info.channels, info.rateHz, when(info, l).c_str(), when(info, h).c_str());
    if (written.clipped > 0) {
        std::fprintf(stderr, "isochron-archive: warning: %lld sample(s) beyond +-1 (or NaN) were clipped in the FLAC file; export as wav to keep them\n",
                     static_cast<long long>(written.clipped));
    }
    return 0;
}

int exportInterval(ArchiveStore& store, const ArchivedStreamInfo& info, const Options& options) {
    const std::optional<std::string> format = options.get("--format");
    const std::optional<std::string> output = options.get("--output");
    if (!format || (*format != "wav" && *format != "flac" && *format != "jsonl")) throw UsageError("export needs --format wav, flac or jsonl");
    if (!output) throw UsageError("export needs --output FILE");
    const ExportTarget target = exportTarget(*output, store.path());
    const auto [l, h] = interval(store, info, options);
    const PartialRemovedOnSignal removedOnSignal(target.renameWhenDone ? target.writing : std::string());
    try {
        if (*format != "jsonl") return exportSound(store, info, l, h, *format == "flac", target);
        if (*output == "-") return exportJsonLines(store, info, l, h, std::cout);
        std::ofstream file(target.writing);
        if (!file) throw UsageError("cannot write '" + target.writing + "': " + std::strerror(errno));
        errno = 0;
        exportJsonLines(store, info, l, h, file);
        file.close();
        // The stream keeps no reason; the failed write or close left it in errno.
        if (!file) throw UsageError("cannot write '" + target.writing + "': " + (errno != 0 ? std::strerror(errno) : "a write failed"));
        finishExport(target);
        return 0;
    } catch (...) {
        if (target.renameWhenDone) std::remove(target.writing.c_str());
        throw;
    }
}

int pruneStream(ArchiveStore& store, const ArchivedStreamInfo& info, const Options& options) {
    const std::optional<std::string> before = options.get("--before");
    if (!before) throw UsageError("prune needs --before T");
    const std::int64_t index = sampleIndexAt(info, parseArchiveTime(*before));
    const ArchiveStore::Pruned dropped = store.prune(info.name, index);
    std::printf("dropped %lld %s (%s) of stream '%s' ending at or before %s\n", static_cast<long long>(dropped.rows),
                info.kind == ArchivedStreamInfo::Kind::Signal ? "piece(s)" : "item(s)", byteSize(dropped.bytes).c_str(), info.name.c_str(),
                when(info, index).c_str());
    return 0;
}

int run(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help") {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 1 : 0;
    }
    const std::string command = argv[1];
    static const std::map<std::string, std::vector<std::string>> kOptions = {
        {"ls", {}}, {"info", {}}, {"get", {"--from", "--to", "--channel"}}, {"export", {"--from", "--to", "--format", "--output"}}, {"prune", {"--before"}}};
    const auto allowed = kOptions.find(command);
    if (allowed == kOptions.end()) throw UsageError("unknown command '" + command + "' (ls, info, get, export, prune; --help)");
    const Options options = parseOptions(argc, argv, allowed->second);
    const std::size_t wanted = command == "ls" ? 1 : 2;
    if (options.positional.size() != wanted) {
        throw UsageError(command + " takes " + (wanted == 1 ? "ARCHIVE" : "ARCHIVE STREAM") + " (got " + std::to_string(options.positional.size()) +
                         " argument(s))");
    }
    // A shell's `1<>ARCHIVE` (no truncation) would have every command write its output into the file.
    if (const std::optional<std::string> suffix = archiveFileOpenAs(STDOUT_FILENO, options.positional[0])) {
        throw UsageError("standard output is the archive '" + options.positional[0] + "'" + (suffix->empty() ? std::string() : " (its file " + *suffix + ")") +
                         " itself: writing there would destroy the recording; redirect it to another file");
    }
    // Reading opens the file read-only (also on a read-only filesystem, or another user's archive);
    // only prune writes, and neither creates the file.
    ArchiveStore store(options.positional[0], command == "prune" ? ArchiveAccess::Modify : ArchiveAccess::Read);
    if (command == "ls") return listStreams(store);
    const ArchivedStreamInfo info = requireStream(store, options.positional[1]);
    if (command == "info") return describeStream(store, info);
    if (command == "get") return printInterval(store, info, options);
    if (command == "export") return exportInterval(store, info, options);
    return pruneStream(store, info, options);
}

}  // namespace

/// SQLite's page cache for this process: 64 slots of a 64 KiB page in one region of transparent huge
/// pages, so that the pages a get reads (about 45 for 10 s x 8 channels) land in memory faulted 2 MiB
/// at a time instead of 4 KiB at a time (700 faults); pages beyond the slots use malloc as before.
/// Before any SQLite use. [main thread]
void giveSqliteHugePageCache() {
    int header = 0;
    if (sqlite3_config(SQLITE_CONFIG_PCACHE_HDRSZ, &header) != SQLITE_OK) return;
    const std::size_t slot = 65536 + static_cast<std::size_t>(header), slots = 64, huge = 2u << 20;
    const std::size_t bytes = (slot * slots + huge - 1) / huge * huge;
    void* reserved = mmap(nullptr, bytes + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (reserved == MAP_FAILED) return;
    auto* aligned = reinterpret_cast<std::byte*>((reinterpret_cast<std::uintptr_t>(reserved) + huge - 1) / huge * huge);
    madvise(aligned, bytes, MADV_HUGEPAGE);
    if (sqlite3_config(SQLITE_CONFIG_PAGECACHE, aligned, static_cast<int>(slot), static_cast<int>(slots)) != SQLITE_OK) munmap(reserved, bytes + huge);
}

int main(int argc, char** argv) {
    isochron::keepStandardStreamsOpen();
    giveSqliteHugePageCache();
    try {
        return run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "isochron-archive: %s\n", e.what());
        return 1;
    }
}
