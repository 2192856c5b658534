// Example plugin "pass_through": the operator "pass.through" passes every item on as it came. The
// smallest complete plugin, and what isochron-bench runs to measure what hosting through the ABI
// costs next to the built-in segments.pass_through. It asks the host for a route (extension
// isochron.routes/1) so its items never cross the ABI (nor, sandboxed, reach its child process);
// where the host does not offer routes, or with `route` off, process() forwards each item, handed
// over to the next operator (forward), so not even a reference count changes.
#include <isochron/isochron.hpp>

namespace {

using namespace isochron::sdk;

class PassThrough final : public Operator {
protected:
    void activate() override {
        if (params().boolean("route")) routeInput(0, 0);
    }
    void process(int, const Item& item) override { forward(0, item); }
};

Plugin describePlugin() {
    return Plugin("pass_through", "1.0.0")
        .add(OperatorType::of<PassThrough>("pass.through")
                 .category("segments")
                 .summary("Forwards every item unchanged (by reference)")
                 .input("in", "any", "items of any type")
                 .output(Port("out", "any", "the same items").typeFrom("in"))
                 .param(Param::boolean("route", true,
                                       "let the host pass items on without calling the plugin when it can (isochron.routes/1); "
                                       "off: the plugin forwards each item itself, one call per item")));
}

}  // namespace

ISOCHRON_PLUGIN(describePlugin)
