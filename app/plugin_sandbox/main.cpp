// isochron-plugin-sandbox: the child process of one sandboxed plugin node. The engine starts it
// (engine/plugins/sandbox/); it is not meant to be run by hand.
#include "engine/plugins/sandbox/sandbox_server.h"

int main(int argc, char** argv) { return isochron::sandbox::runSandboxServer(argc, argv); }
