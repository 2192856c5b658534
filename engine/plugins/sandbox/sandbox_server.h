// SandboxServer: the child's side of a sandboxed node. It loads the plugin, creates one instance of
// the operator type, and then answers the host's requests (sandbox_protocol.h) one at a time until
// told to deactivate. It is the node's AbiNode in this process: items come from the request area
// (samples in place), emits are written to the response area, and segments the plugin allocates
// are made there directly, so the host copies each sample once on the way back (none when the
// plugin forwards its input's samples).
#pragma once

namespace isochron::sandbox {

/// The main function of isochron-plugin-sandbox: serve the node described by the command line
/// (see sandbox_protocol.h) and return the exit status. [the child's main thread]
int runSandboxServer(int argc, char** argv);

}  // namespace isochron::sandbox
