#include "nodes/math/expression.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "nodes/channels/aligned_operator.h"
#include "nodes/math/expression_program.h"

namespace isochron {
namespace {

/// The program for `params`' expression over `inputs` inputs. Throws ParameterError naming what is wrong.
ExpressionProgram compileFor(const ParamSet& params, std::int64_t inputs) {
    ExpressionProgram program;
    try {
        program = ExpressionProgram::compile(params.getString("expression"));
    } catch (const std::invalid_argument& e) {
        throw ParameterError("expression", e.what());
    }
    if (inputs > 0 && program.inputsUsed() > inputs) {
        throw ParameterError("expression", "the expression reads input '" + std::string(1, static_cast<char>('a' + program.inputsUsed() - 1)) +
                                               "' but the node has " + std::to_string(inputs) + " input(s) (a is in0, b in1, ...)");
    }
    return program;
}

/// out[i] = the expression of the inputs' samples i, evaluated block by block.
class Expression final : public AlignedOperator {
protected:
    void onActivate() override {
        AlignedOperator::onActivate();
        try {
            program_ = compileFor(params(), inputCount());
        } catch (const ParameterError& e) {
            throw OperatorError(e.what());
        }
        notice("computes " + program_.toText());
        operands_.resize(static_cast<std::size_t>(inputCount()));
    }

    void onParameterChanged(std::string_view) override {
        try {
            program_ = compileFor(params(), inputCount());
        } catch (const ParameterError& e) {
            warn(std::string(e.what()) + "; kept the previous expression");
        }
    }

    void combine(std::int64_t from, std::int64_t count) override {
        for (int k = 0; k < inputCount(); ++k) operands_[static_cast<std::size_t>(k)] = read(k, from, count).data();
        auto result = SigSeg<float>::allocate(count, from, timebase());
        program_.evaluate(operands_, count, result.writable().data());
        emit(0, Item::signal(std::move(result)));
    }

private:
    ExpressionProgram program_;
    std::vector<const float*> operands_;  // this range of each input, during combine()
};

}  // namespace

OperatorDescriptor expressionDescriptor() {
    OperatorDescriptor d;
    d.typeName = "math.expression";
    d.category = "math";
    d.summary = "An arithmetic expression of the inputs, e.g. a*0.5 + b (compiled once)";
    d.documentation =
        "Inputs are named a (in0), b (in1), ... up to p. Operators + - * / ^ (power) and unary -, parentheses, pi, and the "
        "functions abs sqrt exp log log10 sin cos tan tanh floor ceil min max pow atan2. Arithmetic is float as in C. "
        "The text is compiled once (constants folded) into a postfix program run over blocks of samples. Inputs are aligned "
        "by sample index; a sample an input never delivers reads as zero. A live change that does not compile is refused "
        "with a warning and the previous expression kept.";
    d.inputs = {PortSpec{"in", PortType::signal(SampleType::Float32), "input k, named by the k-th letter (in0 = a)", false, "inputs"}};
    d.outputs = {PortSpec{"out", PortType::signal(SampleType::Float32), "the expression, sample by sample"}};
    d.params = {
        ParamSpec{"inputs", ParamKind::Int, std::int64_t{2}, 0.0, 16.0, "", "inputs a, b, ...; 0 = as many as wired"},
        ParamSpec{"expression", ParamKind::String, std::string("a*0.5 + b"), {}, {}, "", "what each output sample is, in terms of a, b, ...", {}, true},
    };
    d.deriveParams = [](ParamSet& params) { compileFor(params, params.getInt("inputs")); };
    d.create = [] { return std::make_unique<Expression>(); };
    return d;
}

}  // namespace isochron
