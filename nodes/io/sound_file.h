// SoundFile: owns a libsndfile handle and closes it exactly once (on reset() or destruction).
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

}  // namespace isochron
