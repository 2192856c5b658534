// SoundFile: owns a libsndfile handle and closes it exactly once (on reset() or destruction), and the
// settings every sound file this program writes gets (sink recordings and archive exports alike).
#pragma once

#include <memory>

#include <sndfile.h>

namespace isochron {

/// Closes a libsndfile handle. [any thread]
struct SoundFileCloser {
    void operator()(SNDFILE* file) const noexcept { sf_close(file); }
};

/// An open libsndfile handle, or null. [one thread at a time]
using SoundFile = std::unique_ptr<SNDFILE, SoundFileCloser>;

/// The libsndfile format to open for writing `format` (SF_FORMAT_* major | subtype): a WAV becomes an
/// RF64 that prepareForLargeAndRepeatableFile() lets fall back to plain WAV. A WAV states its sizes in
/// 32 bits: past 4 GiB they wrapped and readers saw a few percent of the recording. [any thread]
inline int wavOrLarger(int format) {
    if ((format & SF_FORMAT_TYPEMASK) != SF_FORMAT_WAV) return format;
    return SF_FORMAT_RF64 | (format & ~SF_FORMAT_TYPEMASK);
}

/// Call on a file just opened for writing `format` (as opened: wavOrLarger()), before any sample:
/// an RF64 file that ends below 4 GiB is written as a plain WAV (libsndfile leaves room for the 64-bit
/// sizes and fills them in only when needed), and a float file gets no PEAK chunk, whose time stamp
/// made equal runs give unequal bytes. [the thread writing the file]
inline void prepareForLargeAndRepeatableFile(SNDFILE* file, int format) {
    if ((format & SF_FORMAT_TYPEMASK) == SF_FORMAT_RF64) {
        // libsndfile (1.2) writes no PEAK chunk into an RF64 file, and asked to leave it out it adds one.
        sf_command(file, SFC_RF64_AUTO_DOWNGRADE, nullptr, SF_TRUE);
        return;
    }
    const int samples = format & SF_FORMAT_SUBMASK;
    if (samples == SF_FORMAT_FLOAT || samples == SF_FORMAT_DOUBLE) sf_command(file, SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);
}

}  // namespace isochron
