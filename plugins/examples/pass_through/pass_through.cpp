// Example plugin "pass_through": the operator "pass.through" forwards every item as it came, handed
// over to the next operator (forward), so not even a reference count changes. The smallest complete plugin, and what isochron-bench runs to
// measure what hosting through the ABI costs next to the built-in segments.pass_through.
#include <isochron/isochron.hpp>

namespace {

using namespace isochron::sdk;

class PassThrough final : public Operator {
protected:
    void process(int, const Item& item) override { forward(0, item); }
};

Plugin describePlugin() {
    return Plugin("pass_through", "1.0.0")
        .add(OperatorType::of<PassThrough>("pass.through")
                 .category("segments")
                 .summary("Forwards every item unchanged (by reference)")
                 .input("in", "any", "items of any type")
                 .output(Port("out", "any", "the same items").typeFrom("in")));
}

}  // namespace

ISOCHRON_PLUGIN(describePlugin)
