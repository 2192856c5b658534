#include "nodes/channels/mix.h"

#include <string>
#include <vector>

#include "nodes/channels/aligned_operator.h"

namespace isochron {
namespace {

/// The matrix `params` gives for `outputs` x `inputs`, row-major; empty means every output averages
/// every input. Throws ParameterError when its size is wrong.
std::vector<float> mixingMatrix(const ParamSet& params, std::int64_t inputs, std::int64_t outputs) {
    const std::vector<double>& given = params.getRealList("matrix");
    if (given.empty()) return std::vector<float>(static_cast<std::size_t>(inputs * outputs), 1.0f / static_cast<float>(inputs));
    if (static_cast<std::int64_t>(given.size()) != inputs * outputs) {
        throw ParameterError("matrix", "the matrix has " + std::to_string(given.size()) + " weights; " + std::to_string(outputs) +
                                           " outputs x " + std::to_string(inputs) + " inputs need " + std::to_string(inputs * outputs));
    }
    return {given.begin(), given.end()};
}

/// out_m[i] = sum_n matrix[m][n] in_n[i], over aligned inputs.
class Mix final : public AlignedOperator {
protected:
    void onActivate() override {
        AlignedOperator::onActivate();
        matrix_ = mixingMatrix(params(), inputCount(), outputCount());
        inputSpans_.resize(static_cast<std::size_t>(inputCount()));
    }

    void onParameterChanged(std::string_view) override {
        try {
            matrix_ = mixingMatrix(params(), inputCount(), outputCount());
        } catch (const ParameterError& e) {
            warn(std::string(e.what()) + "; kept the previous matrix");
        }
    }

    void combine(std::int64_t from, std::int64_t count) override {
        const int inputs = inputCount();
        for (int n = 0; n < inputs; ++n) inputSpans_[static_cast<std::size_t>(n)] = read(n, from, count).data();
        for (int m = 0; m < outputCount(); ++m) {
            auto mixed = SigSeg<float>::allocate(count, from, timebase());
            float* out = mixed.writable().data();
            const float* weights = matrix_.data() + static_cast<std::ptrdiff_t>(m) * inputs;
            const float* first = inputSpans_[0];
            for (std::int64_t i = 0; i < count; ++i) out[i] = weights[0] * first[i];
            for (int n = 1; n < inputs; ++n) {
                const float* in = inputSpans_[static_cast<std::size_t>(n)];
                const float w = weights[n];
                for (std::int64_t i = 0; i < count; ++i) out[i] += w * in[i];
            }
            emit(m, Item::signal(std::move(mixed)));
        }
    }

private:
    std::vector<float> matrix_;              // outputs x inputs, row-major
    std::vector<const float*> inputSpans_;   // this range of each input, during combine()
};

}  // namespace

OperatorDescriptor mixDescriptor() {
    OperatorDescriptor d;
    d.typeName = "channels.mix";
    d.category = "channels";
    d.summary = "M outputs, each a weighted sum of N inputs (mixing matrix, live)";
    d.documentation =
        "out_m = sum over n of matrix[m*N + n] * in_n, sample by sample, with the inputs aligned by sample index (a sample an "
        "input never delivers reads as zero). An empty matrix averages every input into every output (a down-mix). "
        "A live change of the matrix applies from the next range of samples.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "channel n", false, "inputs"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "mix m", false, "outputs"}};
    d.params = {
        ParamSpec{"inputs", ParamKind::Int, std::int64_t{0}, 0.0, 1024.0, "channels", "inputs; 0 = as many as wired"},
        ParamSpec{"outputs", ParamKind::Int, std::int64_t{1}, 1.0, 1024.0, "channels", "mixes computed"},
        ParamSpec{"matrix", ParamKind::RealList, std::vector<double>{}, -1e6, 1e6, "",
                  "weights, outputs x inputs row-major (output 0's weights first); empty = average of all inputs", {}, true},
    };
    d.create = [] { return std::make_unique<Mix>(); };
    return d;
}

}  // namespace isochron
