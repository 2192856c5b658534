// Fuzz target: math.expression's text (`a*0.5 + b`), compiled by ExpressionProgram.
//
// Input: the expression text. Properties: a refused text is an std::invalid_argument whose message
// says at which character; an accepted one reads at most inputs a..p, its printed form compiles back
// to the same program, and evaluating it over 300 samples at once (crossing the 256-sample blocks it
// runs in) gives bit for bit what it gives one sample at a time.
#include <bit>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "nodes/math/expression_program.h"
#include "tests/fuzz/fuzz_support.h"

using namespace isochron;

namespace {

constexpr int kInputs = 16;         // a .. p
constexpr std::int64_t kSamples = 300;

/// Inputs with ordinary values, zeros, negatives, tiny and huge ones, the same for every run.
const std::vector<std::vector<float>>& testInputs() {
    static const std::vector<std::vector<float>> inputs = [] {
        std::mt19937 random(7);
        std::uniform_real_distribution<float> uniform(-4.0f, 4.0f);
        std::vector<std::vector<float>> made(kInputs, std::vector<float>(kSamples));
        for (auto& input : made) {
            for (float& v : input) v = uniform(random);
            input[0] = 0.0f;
            input[1] = -1.0f;
            input[2] = 1e-38f;
            input[3] = 3e38f;
        }
        return made;
    }();
    return inputs;
}

bool sameValue(float x, float y) { return (std::isnan(x) && std::isnan(y)) || std::bit_cast<std::uint32_t>(x) == std::bit_cast<std::uint32_t>(y); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    ExpressionProgram program;
    try {
        program = ExpressionProgram::compile(text);
    } catch (const std::invalid_argument& e) {
        fuzz::require(std::string_view(e.what()).find("at character") != std::string_view::npos, "a refused expression without a position");
        return 0;
    }
    fuzz::require(program.inputsUsed() <= kInputs, "an expression reads an input beyond p");
    fuzz::require(!program.instructions().empty(), "an accepted expression without instructions");
    const std::string printed = program.toText();
    try {
        fuzz::require(ExpressionProgram::compile(printed).instructions() == program.instructions(),
                      "an expression's printed form compiles to another program: " + printed);
    } catch (const std::invalid_argument& e) {
        fuzz::require(false, std::string("an expression's printed form does not compile: ") + e.what());
    }
    std::vector<const float*> inputs;
    for (const auto& input : testInputs()) inputs.push_back(input.data());
    std::vector<float> whole(kSamples);
    program.evaluate(inputs, kSamples, whole.data());
    for (std::int64_t i = 0; i < kSamples; ++i) {
        std::vector<const float*> one;
        for (const auto& input : testInputs()) one.push_back(input.data() + i);
        float single = 0;
        program.evaluate(one, 1, &single);
        fuzz::require(sameValue(single, whole[static_cast<std::size_t>(i)]), "block evaluation differs from one sample at a time");
    }
    return 0;
}
