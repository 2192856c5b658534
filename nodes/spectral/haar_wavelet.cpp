#include "nodes/spectral/haar_wavelet.h"

#include <algorithm>
#include <string>
#include <vector>

#include "engine/operators/operator.h"
#include "nodes/spectral/haar_transform.h"

namespace isochron {
namespace {

/// Transforms each window (a power-of-two number of samples) and measures its detail bands.
class HaarWavelet final : public Operator {
protected:
    void onActivate() override { requestedLevels_ = static_cast<int>(params().getInt("levels")); }

    void process(int, Item&& item) override {
        const SampleRange covered = item.range();
        const SigSeg<float> samples = item.takeSignal<float>();
        const std::int64_t length = samples.length();
        const int availableLevels = haarLevelCount(length);
        if (availableLevels < 0) {
            throw OperatorError("window of " + std::to_string(length) +
                                " samples: the Haar transform needs a power-of-two length");
        }
        const int levels = requestedLevels_ == 0 ? availableLevels : requestedLevels_;
        if (levels > availableLevels) {
            throw OperatorError("levels " + std::to_string(levels) + " exceeds the " + std::to_string(availableLevels) +
                                " levels of a window of " + std::to_string(length) + " samples");
        }

        auto coefficients = SigSeg<float>::allocate(length, 0, nullptr);
        const std::span<float> values = coefficients.writable();
        float* next = values.data();
        samples.forEachSpan([&](std::span<const float> run) { next = std::copy(run.begin(), run.end(), next); });
        if (std::ssize(scratch_) < length / 2) scratch_.resize(static_cast<std::size_t>(length / 2));
        haarForward(values, levels, scratch_);

        auto energies = SigSeg<float>::allocate(levels, 0, nullptr);
        const std::span<float> bandEnergies = energies.writable();
        for (int band = 0; band < levels; ++band) {
            const HaarBand detail = haarDetailBand(length, levels - band);  // coarse to fine
            double energy = 0.0;
            for (float c : values.subspan(static_cast<std::size_t>(detail.offset), static_cast<std::size_t>(detail.length))) {
                energy += static_cast<double>(c) * static_cast<double>(c);
            }
            bandEnergies[static_cast<std::size_t>(band)] = static_cast<float>(energy);
        }

        emit(0, Item::frame(std::move(coefficients), covered));
        emit(1, Item::frame(std::move(energies), covered));
    }

private:
    int requestedLevels_ = 0;  // 0: every level the window has
    std::vector<float> scratch_;  // details of one level while they move into place
};

}  // namespace

OperatorDescriptor haarWaveletDescriptor() {
    OperatorDescriptor d;
    d.typeName = "spectral.haar_wavelet";
    d.category = "spectral";
    d.summary = "Orthonormal multi-level Haar transform of each window, and its detail-band energies";
    d.documentation =
        "Each input item is one window of N = 2^J samples (other lengths stop the node with an error). "
        "One level maps pairs to approximations (x_2i + x_2i+1)/sqrt(2) and details (x_2i - x_2i+1)/sqrt(2) "
        "and the next level transforms the approximations again. With L levels the coefficients are laid "
        "out [approximation L | detail L | detail L-1 | ... | detail 1]: detail j (1 = finest) holds N/2^j "
        "values from index N/2^j, the approximation N/2^L values from index 0. The transform is "
        "orthonormal, so energy is preserved. 'energies' holds sum of squares of each detail band, "
        "coarse to fine (detail L first), i.e. total energy minus the approximation's. Both frames "
        "describe the window's range.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "windows, one per item, power-of-two lengths"}};
    d.outputs = {
        PortSpec{"coefficients", PortType::frame(SampleType::Float32), "N wavelet coefficients per window"},
        PortSpec{"energies", PortType::frame(SampleType::Float32), "energy of each detail band, coarse to fine"},
    };
    d.params = {ParamSpec{"levels", ParamKind::Int, std::int64_t{0}, 0.0, 62.0, "",
                          "decomposition levels; 0 = all log2(N); more than log2(N) is an error"}};
    d.create = [] { return std::make_unique<HaarWavelet>(); };
    return d;
}

}  // namespace isochron
